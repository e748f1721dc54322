# SPDX-License-Identifier: BSD-3-Clause
# Sourced on a GPU machine (no package registry there) before running strix under mpirun:
# unpacks Debian's OpenMPI from the .deb files in $1 (scripts/device-check.sh pack puts them
# in .carry/check/mpi) outside /, puts its mpirun on PATH, finds NCCL (the image's Python
# package nvidia-nccl; a NCCL-enabled strix links libnccl.so.2) and keeps NVLink multicast
# off, as the device machines require.
#   source scripts/device-mpi-env.sh DEB_FOLDER
_debs="${1:?a folder of OpenMPI .deb files}"
_ompi=/tmp/strix-openmpi
if [ ! -x "$_ompi/usr/bin/mpirun.openmpi" ]; then
  mkdir -p "$_ompi"
  for _d in "$_debs"/*.deb; do dpkg -x "$_d" "$_ompi"; done
fi
export OPAL_PREFIX="$_ompi/usr" PATH="$_ompi/usr/bin:$PATH"
export LD_LIBRARY_PATH="$_ompi/usr/lib/x86_64-linux-gnu:$_ompi/usr/lib/x86_64-linux-gnu/openmpi/lib:${LD_LIBRARY_PATH:-}"
[ -e "$_ompi/usr/bin/mpirun" ] || ln -sf mpirun.openmpi "$_ompi/usr/bin/mpirun"
_nccl="$(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib"))' 2>/dev/null)"
[ -n "$_nccl" ] && [ -d "$_nccl" ] && export LD_LIBRARY_PATH="$_nccl:$LD_LIBRARY_PATH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PMIX_MCA_pcompress_base_silence_warning=1
# (PMIx looks for its zlib component under the image's paths and says so on stderr, where the
# CLI tests read strix's one error line.)
export PMIX_MCA_mca_base_component_show_load_errors=0 OMPI_MCA_mca_base_component_show_load_errors=0
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
unset _debs _ompi _d _nccl
