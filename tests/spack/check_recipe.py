# SPDX-License-Identifier: BSD-3-Clause
"""Checks spack/packages/strix/package.py without Spack (not installable here): the recipe is
read with Python's ast, and its class, variants, dependencies and CMake arguments are checked
against what strix's CMakeLists.txt offers. Exit 0 when every check holds.

    python3 tests/spack/check_recipe.py SOURCE_DIR
"""
import ast
import pathlib
import re
import sys


def text_of(node):
    """The text of a string constant or f-string (formatted parts shown as {name})."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                parts.append("{" + ast.unparse(v.value) + "}")
        return "".join(parts)
    return None


def calls(tree, name):
    """Every call of `name` in the tree, with its first argument's text and keyword texts."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
            first = text_of(node.args[0]) if node.args else None
            keywords = {k.arg: text_of(k.value) if text_of(k.value) is not None else ast.unparse(k.value)
                        for k in node.keywords}
            found.append((first, keywords))
    return found


def main(source):
    source = pathlib.Path(source)
    recipe = source / "spack" / "packages" / "strix" / "package.py"
    tree = ast.parse(recipe.read_text(), filename=str(recipe))
    cmake = (source / "CMakeLists.txt").read_text()
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    check(re.search(r"^\s*namespace:\s*strix\s*$", (source / "spack" / "repo.yaml").read_text(), re.M),
          "repo.yaml names the namespace strix")
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    check(len(classes) == 1 and classes[0].name == "Strix", "one class, Strix")
    bases = {ast.unparse(b) for b in classes[0].bases} if classes else set()
    check({"CMakePackage", "CudaPackage"} <= bases, f"Strix is a CMakePackage and a CudaPackage (bases: {bases})")

    variants = {first for first, _ in calls(tree, "variant")}
    for v in ("openmp", "serial", "mpi", "python", "cli"):
        check(v in variants, f"variant {v}")

    deps = calls(tree, "depends_on")
    def has_dep(prefix, when=None):
        return any(d and d.startswith(prefix) and (when is None or k.get("when") == when) for d, k in deps)
    check(has_dep("kokkos@"), "depends on a Kokkos version range")
    check(has_dep("kokkos+openmp", "+openmp") and has_dep("kokkos+serial", "+serial"), "the host backends in Kokkos")
    cuda = [(d, k) for d, k in deps if d and d.startswith("kokkos+cuda")]
    check(any("cuda_arch={arch}" in d and k.get("when") == "+cuda cuda_arch={arch}" for d, k in cuda),
          "CUDA: Kokkos with the same cuda_arch")
    check(has_dep("kokkos+cuda_lambda", "+cuda ^kokkos@:4") and not any("cuda_lambda" in d and "cuda_arch" in d for d, k in cuda),
          "CUDA: device lambdas asked of Kokkos up to 4.x only (Kokkos 5's recipe has no such variant)")
    kernels = [(d, k) for d, k in deps if d and d.startswith("kokkos-kernels@")]
    check(any(d == "kokkos-kernels@{kokkos_version}" and k.get("when") == "^kokkos@{kokkos_version}"
              for d, k in kernels), "Kokkos Kernels of Kokkos' own version")
    check(has_dep("kokkos-kernels", "^kokkos@:3"), "Kokkos Kernels required with Kokkos 3")
    check(has_dep("mpi", "+mpi"), "MPI with +mpi")
    check(has_dep("py-pybind11") and has_dep("py-numpy"), "pybind11 and NumPy for +python")
    for dep in ("cli11", "nlohmann-json", "htslib"):
        check(has_dep(dep), f"the tool's {dep}")

    # Every STRIX_ option the recipe sets exists in CMakeLists.txt, and the variants that map
    # to options map to the ones that exist.
    options = set(re.findall(r"option\((STRIX_\w+)", cmake))
    defined = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("define", "define_from_variant") and node.args:
            name = text_of(node.args[0])
            if name and name.startswith("STRIX_"):
                defined.add(name)
                check(name in options, f"cmake_args sets {name}, which CMakeLists.txt offers")
    for needed in ("STRIX_ENABLE_MPI", "STRIX_ENABLE_PYTHON", "STRIX_BOOTSTRAP_KOKKOS"):
        check(needed in defined, f"cmake_args sets {needed}")

    for f in failures:
        print(f"FAIL: {f}")
    print(f"spack recipe: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2]))
