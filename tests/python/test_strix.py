# SPDX-License-Identifier: BSD-3-Clause
# The Python module against naive Python references, on every backend the build has: hard
# inputs, every accepted input type and the refused ones, files, errors, many threads.
import os
import random
import subprocess
import sys
import threading

import numpy as np
import pytest

import strix

BACKENDS = strix.backends()


def fibonacci(n):
    a, b = b"a", b"ab"
    while len(b) < n:
        a, b = b, b + a
    return b[:n]


def hard_inputs():
    rng = random.Random(5)
    return {
        "empty": b"",
        "one byte": b"x",
        "all equal": b"a" * 300,
        "periodic": b"abc" * 101,
        "fibonacci": fibonacci(377),
        "bytes 0x00 and 0xff": bytes([0, 255, 0, 0, 255, 255, 0]) * 20,
        "random sigma 4": bytes(rng.choice(b"ACGT") for _ in range(700)),
        "random bytes": bytes(rng.randrange(256) for _ in range(500)),
        "mississippi": b"mississippi",
    }


def naive_sa(t):
    return sorted(range(len(t)), key=lambda i: t[i:])


def naive_lcp(t, sa):
    out = [0] * len(t)
    for k in range(1, len(t)):
        a, b = t[sa[k - 1]:], t[sa[k]:]
        h = 0
        while h < min(len(a), len(b)) and a[h] == b[h]:
            h += 1
        out[k] = h
    return out


def naive_bwt(t):
    # divbwt layout: T[sa[i] - 1] for each row but the one of suffix 0, which is left out.
    sa = naive_sa(t)
    rows = [len(t)] + sa  # row 0: the empty suffix
    l = [t[r - 1] if r > 0 else None for r in rows]
    primary = l.index(None)
    return bytes(c for c in l if c is not None), primary


def occurrences(t, p):
    return [i for i in range(len(t) - len(p) + 1) if t[i:i + len(p)] == p]


def longest_repeat_naive(t):
    # The leftmost longest repeat covering each position k: (s, l) with s <= k < s + l, t[s:s+l]
    # occurring at least twice, l largest, then s smallest; (0, 0) when none covers k.
    out = []
    for k in range(len(t)):
        best = (0, 0)
        for s in range(k + 1):
            for l in range(len(t) - s, k - s, -1):
                if l <= best[1]:
                    break
                if len(occurrences(t, t[s:s + l])) >= 2:
                    best = (s, l)
                    break
        out.append(best)
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,text", list(hard_inputs().items()))
def test_suffix_array_bwt_lcp_against_naive(backend, name, text):
    sa = strix.suffix_array(text, backend=backend)
    assert sa.dtype == np.uint32
    assert sa.tolist() == naive_sa(text)
    assert strix.check(text, sa, backend=backend)
    assert strix.lcp(text, backend=backend).tolist() == naive_lcp(text, naive_sa(text))
    assert strix.lcp(text, sa, backend=backend).tolist() == naive_lcp(text, naive_sa(text))
    isa = strix.inverse_suffix_array(sa, backend=backend)
    assert all(isa[sa[i]] == i for i in range(len(text)))
    l, primary = strix.bwt(text, backend=backend)
    assert (bytes(l), primary) == naive_bwt(text)
    assert bytes(strix.unbwt(l, primary)) == text
    sa64 = strix.suffix_array(text, backend=backend, width=64)
    assert sa64.dtype == np.uint64 and sa64.tolist() == sa.tolist()


def naive_generalized_sa(t):
    # Each 0x00 ends a string: compare up to it; two 0x00s by position.
    def key(i):
        end = t.find(b"\0", i)
        return (t[i:], ) if end < 0 else (t[i:end] + b"\0", end)
    return sorted(range(len(t)), key=key)


@pytest.mark.parametrize("backend", BACKENDS)
def test_generalized_suffix_array(backend):
    rng = random.Random(9)
    reads = b"".join(bytes(rng.choice(b"AC") for _ in range(rng.randrange(6))) + b"\0" for _ in range(300))
    for text in [b"", b"\0", b"banana\0ban\0banana\0", b"ab\0\0ab\0a", reads, b"mississippi"]:
        expected = naive_generalized_sa(text)
        for width in (None, 64):
            gsa = strix.suffix_array(text, backend=backend, width=width, generalized=True)
            assert gsa.tolist() == expected
            assert strix.check(text, gsa, backend=backend, generalized=True)
    text = b"ab\0ab\0b\0"
    assert not strix.check(text, strix.suffix_array(text, backend=backend), backend=backend, generalized=True)
    assert not strix.check(text, strix.suffix_array(text, backend=backend, generalized=True), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("algorithm", ["auto", "prefix-doubling", "larsson-sadakane", "skew", "dc7", "sais"])
def test_every_algorithm(backend, algorithm):
    if algorithm == "sais" and backend == "cuda":
        pytest.skip("sais runs on host backends")
    text = fibonacci(1000) + b"banana" * 50
    assert strix.suffix_array(text, algorithm=algorithm, backend=backend).tolist() == naive_sa(text)


@pytest.mark.parametrize("backend", BACKENDS)
def test_input_types(backend):
    text = b"abracadabra" * 7
    expected = naive_sa(text)
    array = np.frombuffer(text, dtype=np.uint8)
    for t in (text, bytearray(text), memoryview(text), array, array.astype(np.int8)):
        assert strix.suffix_array(t, backend=backend).tolist() == expected
    # Non-contiguous views and arrays are copied.
    doubled = bytes(c for c in text for _ in range(2))
    assert strix.suffix_array(np.frombuffer(doubled, dtype=np.uint8)[::2], backend=backend).tolist() == expected
    assert strix.suffix_array(memoryview(doubled)[::2], backend=backend).tolist() == expected
    with pytest.raises(TypeError):
        strix.suffix_array("a str", backend=backend)
    with pytest.raises(TypeError):
        strix.suffix_array(np.arange(10, dtype=np.int32), backend=backend)
    with pytest.raises(ValueError):
        strix.suffix_array(np.zeros((2, 3), dtype=np.uint8), backend=backend)
    with pytest.raises(TypeError):
        strix.suffix_array(12345, backend=backend)


def test_bad_arguments():
    with pytest.raises(ValueError, match="backend"):
        strix.suffix_array(b"abc", backend="nonsense")
    with pytest.raises(ValueError):
        strix.suffix_array(b"abc", algorithm="nonsense")
    with pytest.raises(ValueError):
        strix.suffix_array(b"abc", width=48)
    sa = strix.suffix_array(b"banana")
    assert not strix.check(b"banana", sa[::-1].copy())
    assert not strix.check(b"banana", sa[:3].copy())
    assert not strix.check(b"banana", [9, 9, 9, 9, 9, 9])
    assert not strix.check(b"banana", [-1, 3, 1, 0, 4, 2])
    assert not strix.check(b"banana", [2**40, 3, 1, 0, 4, 2])
    with pytest.raises(TypeError):
        strix.check(b"banana", object())
    with pytest.raises(ValueError):
        strix.lcp(b"banana", np.array([0, 1, 2, 3, 4, 5]))  # not its suffix array
    with pytest.raises(ValueError):
        strix.inverse_suffix_array(np.array([-1, 0]))
    with pytest.raises(ValueError):
        strix.inverse_suffix_array([0, 0, 1])  # not a permutation
    with pytest.raises(ValueError):
        strix.inverse_suffix_array([5, 0])  # beyond n: would write outside the answer
    assert strix.inverse_suffix_array([2, 0, 1]).dtype == np.uint32
    assert strix.inverse_suffix_array(np.array([2, 0, 1], dtype=np.uint64)).tolist() == [1, 2, 0]
    with pytest.raises(TypeError):
        strix.inverse_suffix_array(np.array([0.5, 1.0]))
    with pytest.raises(ValueError):
        strix.unbwt(b"annb$aa", 99)
    with pytest.raises(ValueError):
        strix.set_threads(2)  # Kokkos has started


@pytest.mark.parametrize("backend", BACKENDS)
def test_longest_repeats(backend):
    for text in (b"mississippi", b"abcabxabcd", b"aaaa", b"x", fibonacci(60)):
        starts, lengths = strix.longest_repeats(text, backend=backend)
        expected = longest_repeat_naive(text)
        assert list(zip(starts.tolist(), lengths.tolist())) == expected
        offsets, all_starts, all_lengths = strix.longest_repeats(text, all=True, method="raw", backend=backend)
        assert len(offsets) == len(text) + 1
        for k in range(len(text)):
            got = list(zip(all_starts[offsets[k]:offsets[k + 1]].tolist(), all_lengths[offsets[k]:offsets[k + 1]].tolist()))
            if expected[k][1] == 0:
                assert got == []
            else:
                assert got[0] == expected[k]
                assert all(l == expected[k][1] and s <= k < s + l for s, l in got)
    with pytest.raises(ValueError):
        strix.longest_repeats(b"abc", method="fast")


def patterns_for(text, rng):
    ps = [b"", text, text + b"x", b"\x01\x02", b"A"]
    for _ in range(40):
        if not text:
            break
        length = 1 + rng.randrange(min(len(text), 12))
        at = rng.randrange(len(text) - length + 1)
        p = bytearray(text[at:at + length])
        if rng.random() < 0.25:
            p[rng.randrange(length)] ^= 1 + rng.randrange(255)
        ps.append(bytes(p))
    return ps


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,text", list(hard_inputs().items()))
def test_fm_index_against_brute_force(backend, name, text, tmp_path):
    rng = random.Random(len(text))
    ps = patterns_for(text, rng)
    for rate in (1, 3, 32):
        fm = strix.FMIndex.build(text, sample_rate=rate, backend=backend)
        assert len(fm) == len(text) and fm.sample_rate == rate and fm.backend == backend
        expected = [occurrences(text, p) for p in ps]
        assert fm.count(ps).tolist() == [len(e) for e in expected]
        assert [a.tolist() for a in fm.locate(ps)] == expected
        positions, starts, counts = fm.locate(ps, max_occ=2, flat=True)
        for q, e in enumerate(expected):
            few = positions[starts[q]:starts[q + 1]].tolist()
            assert counts[q] == len(e) and len(few) == min(2, len(e)) and set(few) <= set(e) and few == sorted(few)
        assert fm.extract(0, len(text)) == text
        if text:
            assert fm.extract(len(text) // 3, len(text) // 2) == text[len(text) // 3:len(text) // 3 + len(text) // 2]
    # One buffer with offsets, and str patterns.
    buffer = b"".join(ps)
    offsets = np.cumsum([0] + [len(p) for p in ps])
    assert fm.count(buffer, offsets).tolist() == fm.count(ps).tolist()
    assert fm.count(["a", "b"]).tolist() == fm.count([b"a", b"b"]).tolist()
    # Saved and loaded.
    path = tmp_path / "x.idx"
    fm.save(path)
    loaded = strix.FMIndex.load(str(path), backend=backend)
    assert loaded.count(ps).tolist() == fm.count(ps).tolist()
    assert loaded.extract(0, len(text)) == text and loaded.sequences is None


def test_fm_index_files_and_errors(tmp_path):
    text = b"ACGTACGTTGCA" * 100
    fm = strix.FMIndex.build(text, sample_rate=8, extract=False)
    assert not fm.can_extract
    with pytest.raises(ValueError):
        fm.extract(0, 5)
    with pytest.raises(ValueError):
        fm.extract(len(text), 1)
    path = tmp_path / "a.idx"
    fm.save(path)
    data = path.read_bytes()
    (tmp_path / "half.idx").write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="truncated"):
        strix.FMIndex.load(tmp_path / "half.idx")
    (tmp_path / "foreign.idx").write_bytes(b"not an index at all" * 10)
    with pytest.raises(ValueError):
        strix.FMIndex.load(tmp_path / "foreign.idx")
    with pytest.raises(OSError):
        strix.FMIndex.load(tmp_path / "missing.idx")
    with pytest.raises(OSError):
        fm.save(tmp_path / "no" / "such" / "folder" / "x.idx")
    with pytest.raises(TypeError):
        fm.count(b"ACGT")  # one buffer needs offsets
    with pytest.raises(ValueError):
        fm.count(b"ACGT", offsets=[0, 5])
    with pytest.raises(ValueError):
        fm.locate([b"A"], max_occ=0)
    # A path is read as the text.
    (tmp_path / "t.txt").write_bytes(text)
    assert strix.FMIndex.build(tmp_path / "t.txt").count([b"ACGT"]).tolist() == [len(occurrences(text, b"ACGT"))]


@pytest.mark.parametrize("backend", BACKENDS)
def test_fm_index_of_a_reference(backend, tmp_path):
    sequences = {"chr1": b"ACGTACGTAC", "empty": b"", "chr2": b"GTACGTT", "chr1 again": b"ACG"}
    fm = strix.FMIndex.build_reference(sequences, sample_rate=2, backend=backend)
    assert fm.sequences == [("chr1", 0, 10), ("empty", 11, 0), ("chr2", 12, 7), ("chr1 again", 20, 3)]
    # Only within a sequence: "ACGTT" is in chr2; "TACGT" spans chr1's end and chr2's start nowhere.
    ps = [b"ACG", b"GTT", b"ACGTAC", b"CGTACGTT", b"AC\nG", b"CG"]
    expected = {p: sorted((k, i) for k, (_, s) in enumerate(sequences.items()) for i in occurrences(s, p)) for p in ps}
    assert fm.count(ps).tolist() == [len(expected[p]) for p in ps]
    for p, found in zip(ps, fm.locate(ps)):
        seq, offset = fm.resolve(found)
        assert sorted(zip(seq.tolist(), offset.tolist())) == expected[p]
    path = tmp_path / "ref.idx"
    fm.save(path)
    loaded = strix.FMIndex.load(path, backend=backend)
    assert loaded.sequences == fm.sequences and loaded.count(ps).tolist() == fm.count(ps).tolist()
    assert strix.FMIndex.build_reference([("a", b"AC"), ("b", b"GT")]).count([b"CG"]).tolist() == [0]
    with pytest.raises(ValueError):
        strix.FMIndex.build_reference({"bad": b"AC\nGT"})
    with pytest.raises(ValueError):
        strix.FMIndex.build_reference({})
    with pytest.raises(ValueError):
        strix.FMIndex.build(b"ACGT").resolve([0])
    with pytest.raises(ValueError):
        fm.resolve([len(fm)])


def brute_search(text, read, k, distance, separator=None):
    """Every start p within k errors (Hamming: text[p, p + m); edit: some text[p, e)), smallest distance."""
    hits = []
    m = len(read)
    if m == 0:
        return [(p, 0) for p in range(len(text) + 1)]
    for p in range(len(text) + 1):
        if distance == "hamming":
            window = text[p:p + m]
            if len(window) < m or (separator is not None and separator in window):
                continue
            d = sum(a != b for a, b in zip(window, read))
        else:
            col = list(range(m + 1))
            d = col[m]
            e = p
            while e < len(text) and text[e] != separator and min(col) <= k:
                nxt = [col[0] + 1]
                for j in range(1, m + 1):
                    nxt.append(min(col[j - 1] + (text[e] != read[j - 1]), col[j] + 1, nxt[j - 1] + 1))
                col = nxt
                d = min(d, col[m])
                e += 1
        if d <= k:
            hits.append((p, d))
    return hits


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("distance", ["hamming", "edit"])
def test_fm_index_search(backend, distance, tmp_path):
    rng = random.Random(7)
    text = bytes(rng.choice(b"ACGT") for _ in range(600))
    reads = [b"", b"A", text[10:30], text[595:], b"ACGTNACG"]
    for _ in range(12):
        m = rng.randint(2, 18)
        p = rng.randrange(len(text) - m)
        r = bytearray(text[p:p + m])
        for _ in range(rng.randint(0, 3)):
            at = rng.randrange(len(r))
            if distance == "edit" and rng.random() < 0.5:
                r.insert(at, rng.choice(b"ACGT")) if rng.random() < 0.5 else r.pop(at)
            else:
                r[at] = rng.choice(b"ACGT")
        reads.append(bytes(r))
    fm = strix.FMIndex.build(text, sample_rate=4, backend=backend, approximate=True)
    assert fm.approximate
    for k in (0, 1, 2, 3):
        found = fm.search(reads, k=k, distance=distance)
        for read, (positions, distances) in zip(reads, found):
            assert positions.dtype == np.uint64 and distances.dtype == np.uint8
            assert list(zip(positions.tolist(), distances.tolist())) == brute_search(text, read, k, distance)
    # Flat, other schemes, a buffer with offsets, and the index file's reverse part.
    positions, distances, starts = fm.search(reads, k=2, distance=distance, flat=True)
    assert starts.tolist()[-1] == len(positions) == len(distances)
    want = fm.search(reads, k=2, distance=distance)
    for scheme in ("kianfar", "01*0", "pigeonhole", "kucherov"):
        got = fm.search(reads, k=2, distance=distance, scheme=scheme)
        assert all(a.tolist() == b.tolist() and c.tolist() == d.tolist() for (a, c), (b, d) in zip(got, want))
    buffer = b"".join(reads)
    offsets = np.cumsum([0] + [len(r) for r in reads], dtype=np.uint64)
    assert fm.search(buffer, offsets, k=2, distance=distance, flat=True)[0].tolist() == positions.tolist()
    fm.save(tmp_path / "a.idx")
    loaded = strix.FMIndex.load(tmp_path / "a.idx", backend=backend)
    assert loaded.approximate
    assert loaded.search(reads, k=2, distance=distance, flat=True)[0].tolist() == positions.tolist()
    # A reference: nothing across two sequences.
    ref = strix.FMIndex.build_reference({"a": b"ACGTACGTTA", "b": b"TTACGTAAC"}, backend=backend, approximate=True)
    joined = b"ACGTACGTTA\nTTACGTAAC"
    for read in (b"GTTATT", b"ACGTAAC", b"TAT"):
        (positions, distances), = ref.search([read], k=1, distance=distance)
        assert list(zip(positions.tolist(), distances.tolist())) == brute_search(joined, read, 1, distance, separator=10)
    # Errors: no reverse part, k, distance and scheme out of range.
    plain = strix.FMIndex.build(text, backend=backend)
    assert not plain.approximate
    with pytest.raises(ValueError, match="approximate=True"):
        plain.search([b"ACGT"])
    plain.save(tmp_path / "plain.idx")
    with pytest.raises(ValueError, match="approximate=True"):
        strix.FMIndex.load(tmp_path / "plain.idx", backend=backend).search([b"ACGT"])
    with pytest.raises(ValueError, match="k is 0 to 6"):
        fm.search([b"ACGT"], k=7)
    with pytest.raises(ValueError, match="distance is"):
        fm.search([b"ACGT"], distance="levenshtein")
    with pytest.raises(ValueError, match="no search scheme named"):
        fm.search([b"ACGT"], scheme="optimal")
    with pytest.raises(ValueError, match="k = 1 and 2 only"):
        fm.search([b"ACGT"], k=3, scheme="kucherov")


@pytest.mark.parametrize("backend", BACKENDS)
def test_text_index(backend):
    text = fibonacci(500)
    index = strix.TextIndex(text, backend=backend)
    sa = naive_sa(text)
    assert len(index) == 500 and index.width == 32
    assert index.suffix_array.tolist() == sa
    assert index.lcp.tolist() == naive_lcp(text, sa)
    assert index.inverse_suffix_array.tolist() == np.argsort(sa).tolist()
    l, primary = index.bwt
    assert (bytes(l), primary) == naive_bwt(text)
    before = index.nbytes
    index.release("lcp")
    assert index.nbytes < before
    with pytest.raises(ValueError):
        index.release("nonsense")
    fm = index.fm_index(sample_rate=4)
    assert fm.count([b"ab", b"ba"]).tolist() == [len(occurrences(text, b"ab")), len(occurrences(text, b"ba"))]
    assert strix.TextIndex(text, backend=backend, width=64).suffix_array.dtype == np.uint64


def naive_rank(seq, c, i):
    return sum(1 for x in seq[:i] if x == c)


def naive_select(seq, c, k):
    seen = 0
    for i, x in enumerate(seq):
        if x == c:
            seen += 1
            if seen == k:
                return i
    return len(seq)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("cls", [strix.WaveletTree, strix.WaveletMatrix])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
def test_wavelets(backend, cls, dtype, tmp_path):
    rng = np.random.default_rng(3)
    seq = rng.integers(0, 50 if dtype == np.uint8 else 3000, size=600).astype(dtype)
    seq[100:200] = 7
    w = cls(seq, backend=backend)
    assert len(w) == 600 and w.dtype == np.dtype(dtype)
    positions = np.arange(600)
    assert w.access(positions).tolist() == seq.tolist()
    assert w.access(17) == seq[17]
    symbols = seq[rng.integers(0, 600, size=200)]
    at = rng.integers(0, 601, size=200)
    assert w.rank(symbols, at).tolist() == [naive_rank(seq.tolist(), int(c), int(i)) for c, i in zip(symbols, at)]
    assert w.rank(7, 150) == naive_rank(seq.tolist(), 7, 150)
    ks = rng.integers(1, 4, size=200)
    assert w.select(symbols, ks).tolist() == [naive_select(seq.tolist(), int(c), int(k)) for c, k in zip(symbols, ks)]
    with pytest.raises(ValueError):
        w.access(600)
    with pytest.raises(ValueError):
        w.rank([1, 2], [3])
    path = tmp_path / "w.wt"
    w.save(path)
    back = cls.load(path, backend=backend)
    assert back.access(positions).tolist() == seq.tolist()
    other = strix.WaveletMatrix if cls is strix.WaveletTree else strix.WaveletTree
    with pytest.raises(ValueError):
        other.load(path)
    assert cls(b"banana", backend=backend).rank(ord("a"), 6) == 3


@pytest.mark.parametrize("backend", BACKENDS)
def test_many_threads_at_once(backend):
    # Every kind of call from threads other than the one that started Kokkos (Kokkos 3's
    # OpenMP backend refuses reductions from them unless the module runs them on its own thread).
    text = fibonacci(3000)
    expected = naive_sa(text)
    expected_lcp = naive_lcp(text, expected)
    fm = strix.FMIndex.build(text, backend=backend)
    seq = np.frombuffer(text, dtype=np.uint8)
    errors = []

    def work(seed):
        try:
            rng = random.Random(seed)
            for _ in range(4):
                assert strix.suffix_array(text, backend=backend).tolist() == expected
                p = text[rng.randrange(2000):][:8]
                found = occurrences(text, p)
                assert fm.count([p]).tolist() == [len(found)]
                assert fm.locate([p])[0].tolist() == found
                start = rng.randrange(len(text))
                assert fm.extract(start, 40) == text[start:start + 40]
                assert strix.check(text, expected, backend=backend)
                assert strix.lcp(text, backend=backend).tolist() == expected_lcp
                wm = strix.WaveletMatrix(seq, backend=backend)
                assert int(wm.rank(ord("a"), 1000)) == text[:1000].count(b"a")
                index = strix.TextIndex(text, backend=backend)
                assert index.suffix_array.tolist() == expected
                del wm, index  # released on the module's thread
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def run_python(script):
    # The script in a new interpreter that imports this strix.
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.abspath(strix.__file__)) + os.pathsep +
               os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)


def test_exit_with_live_objects_and_a_busy_thread():
    # At exit the module frees live objects and stops Kokkos while a daemon thread is still
    # calling it; the daemon's next call waits for the process to end, which exits cleanly.
    script = """
import threading, strix
t = b"abracadabra" * 100
fm = strix.FMIndex.build(t)
index = strix.TextIndex(t); index.suffix_array
def first():
    global wt
    wt = strix.WaveletTree(bytearray(t))
    assert fm.locate([b"cad"])[0].tolist()[:2] == [4, 15]
threading.Thread(target=first).start()
threading.Thread(target=lambda: [strix.suffix_array(t * 50) for _ in range(100000)], daemon=True).start()
print("done")
"""
    for _ in range(3):
        run = run_python(script)
        assert (run.returncode, run.stdout, run.stderr) == (0, "done\n", "")


def test_a_call_after_strix_stopped():
    # An exit handler registered before strix's first call runs after strix stopped: its call
    # gets RuntimeError, and the process still exits cleanly.
    script = """
import atexit, strix
def late():
    try:
        strix.suffix_array(b"banana")
    except RuntimeError as e:
        print("late:", e)
atexit.register(late)
print(strix.suffix_array(b"banana").tolist())
"""
    run = run_python(script)
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == "[5, 3, 1, 0, 4, 2]\nlate: strix has stopped (the interpreter is exiting)\n"


def test_module():
    assert BACKENDS and set(BACKENDS) <= {"cuda", "openmp", "serial"}
    assert strix.__version__.count(".") == 2
    assert os.path.exists(os.path.join(os.path.dirname(strix.__file__), "strix.pyi"))
