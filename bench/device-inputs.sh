# SPDX-License-Identifier: BSD-3-Clause
# Shared by the device scripts (sourced): unpacks the carried inputs (.carry/data/*.xz)
# into $in and generates the synthetic ones named in $inputs. Needs $carry, $bin, $in.
mkdir -p "$in"
for f in "$carry"/data/*.xz; do
  [ -e "$f" ] || continue
  name="$(basename "$f" .xz)"
  [ -f "$in/$name" ] && continue
  xz -dc "$f" > "$in/$name" 2>/dev/null ||
    python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$f" "$in/$name"
done
case " $inputs " in *" fibonacci-256MiB "*) [ -f "$in/fibonacci-256MiB" ] || "$bin/strix_bench_gen" fibonacci $((256 << 20)) "$in/fibonacci-256MiB";; esac
case " $inputs " in *" periodic1000-256MiB "*) [ -f "$in/periodic1000-256MiB" ] || "$bin/strix_bench_gen" periodic $((256 << 20)) "$in/periodic1000-256MiB" 1000;; esac
case " $inputs " in *" equal-1GiB "*) [ -f "$in/equal-1GiB" ] || "$bin/strix_bench_gen" equal $((1 << 30)) "$in/equal-1GiB";; esac
