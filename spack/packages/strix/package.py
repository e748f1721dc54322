# SPDX-License-Identifier: BSD-3-Clause
"""Spack recipe for strix: GPU string indexing on Kokkos.

strix builds against the Kokkos of the Spack environment: the backends strix is asked for
must be in that Kokkos, CUDA with its lambdas and the same architecture. Kokkos 3.x needs
Kokkos Kernels (a team sort) of the same version; from Kokkos 4 strix needs Kokkos alone,
and a Kokkos Kernels of the same version is accepted when the environment has one.
"""

from spack.package import *


class Strix(CMakePackage, CudaPackage):
    """Suffix arrays, BWT, LCP, wavelet trees and FM-indexes built on GPUs (CUDA) or host
    threads (OpenMP), with a command-line tool and a Python module."""

    # strix has no public address yet: Spack builds it from a source tree,
    #   spack repo add SOURCE/spack
    #   spack develop --path SOURCE strix@main && spack install strix@main +cuda cuda_arch=90
    license("BSD-3-Clause")

    version("main")

    variant("openmp", default=True, description="Build for Kokkos' OpenMP backend")
    variant("serial", default=True, description="Build for Kokkos' Serial backend")
    variant("mpi", default=False, description="Distributed suffix arrays and BWTs across MPI ranks")
    variant("python", default=False, description="The Python module (pybind11, NumPy)")
    variant("cli", default=True, description="The strix command-line tool")
    variant("divsufsort", default=True, description="libdivsufsort as a host suffix-array algorithm")

    depends_on("cxx", type="build")
    depends_on("cmake@3.22:", type="build")

    # Kokkos versions strix is checked against (README, "Kokkos versions").
    depends_on("kokkos@3.4.01:")
    depends_on("kokkos+openmp", when="+openmp")
    depends_on("kokkos+serial", when="+serial")
    for arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda cuda_arch={arch}", when=f"+cuda cuda_arch={arch}")
    # Device lambdas: a variant of Spack's kokkos up to 4.x; always on from Kokkos 5.
    depends_on("kokkos+cuda_lambda", when="+cuda ^kokkos@:4")
    # Kokkos Kernels of Kokkos' own version (as ArborX's recipe pairs them); needed by 3.x.
    for kokkos_version in ("3.4.01", "3.7.02", "4.5.01", "4.6.01"):
        depends_on(f"kokkos-kernels@{kokkos_version}", when=f"^kokkos@{kokkos_version}")
    depends_on("kokkos-kernels", when="^kokkos@:3")

    depends_on("mpi", when="+mpi")
    depends_on("libdivsufsort", when="+divsufsort")
    with when("+cli"):
        depends_on("cli11@2:")
        depends_on("nlohmann-json@3:")
        depends_on("htslib")
        depends_on("zlib-api")
        depends_on("pkgconfig", type="build")
    with when("+python"):
        extends("python")
        depends_on("python@3.9:", type=("build", "run"))
        depends_on("py-pybind11@2.10:", type="build")
        depends_on("py-numpy", type=("build", "run"))

    conflicts("+cuda", when="cuda_arch=none", msg="name the GPU's architecture: cuda_arch=90 for an H100/H200")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("STRIX_BOOTSTRAP_KOKKOS", False),
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            self.define_from_variant("STRIX_ENABLE_MPI", "mpi"),
            self.define_from_variant("STRIX_ENABLE_PYTHON", "python"),
            self.define_from_variant("STRIX_ENABLE_CLI", "cli"),
            self.define_from_variant("STRIX_WITH_DIVSUFSORT", "divsufsort"),
            self.define("STRIX_ENABLE_TESTS", self.run_tests),
        ]
        if spec.satisfies("+cuda"):
            # Kokkos' compiler wrapper compiles the CUDA units (as for every Kokkos CUDA client).
            args.append(self.define("CMAKE_CXX_COMPILER", spec["kokkos"].kokkos_cxx))
        if spec.satisfies("+python"):
            args.append(self.define("Python3_EXECUTABLE", spec["python"].command.path))
        return args
