#!/bin/sh
# Builds GuiNN Checkers 2.06 (Jonathan Kreuzer, public source at
# https://github.com/jonkr2/GuiNN_Checkers, CC BY-NC-SA 3.0) on Linux with
# g++, linked with tools/outside_engine/guinn_engine.cpp, which speaks
# tallyho's engine-mode protocol. Nothing of GuiNN is kept in this repo: it is
# cloned at a pinned commit into target/outside_engine/, a few lines of it are
# changed there so that g++ takes them (listed below), and the program is
# left at target/outside_engine/guinn_engine, next to the net and the
# 4-piece database that come with the source.
#
#   tools/outside_engine/build.sh
#
# GUINN_REPO names another place to clone from (a local mirror); GUINN_COMMIT
# another commit.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
url="${GUINN_REPO:-https://github.com/jonkr2/GuiNN_Checkers}"
commit="${GUINN_COMMIT:-b12f109319c88bd0a3b0cf2b8fdca995469083db}"
out="$repo/target/outside_engine"
src="$out/GuiNN_Checkers"

mkdir -p "$out"
if [ ! -d "$src/.git" ]; then
    git clone --quiet "$url" "$src"
fi
git -C "$src" checkout --quiet --force "$commit"
git -C "$src" clean --quiet -fdx

# What g++ on Linux needs that MSVC on Windows did not:
# - the GCC branches of the bit helpers in moveGen.h name variables that do
#   not exist there (`Moves`, `bb`; the argument is `moves`);
# - egdb.h says `extern "C" extern`, once too often for g++;
# - board.h declares GetJumpers and GetMovers inline but defines them in
#   movegen.cpp, so g++ never emits them for search.cpp to call;
# - uncompress.h casts with `unsigned char (x)`, which g++ refuses;
# - includes spelled in another case than the files (`movegen.h`,
#   `neuralNet/`), which Windows forgives;
# - <windows.h>, <conio.h> and <intrin.h>, given by tools/outside_engine/compat.
cd "$src/src"
sed -i -e 's/__builtin_popcountll(Moves)/__builtin_popcount(moves)/' \
    -e 's/if (bb == 0) return 0;/if (moves == 0) return 0;/' \
    -e 's/__builtin_ctzll(bb)/__builtin_ctz(moves)/' \
    -e 's/63 - __builtin_clzll(bb)/31 - __builtin_clz(moves)/' moveGen.h
sed -i 's/unsigned char (/(unsigned char)(/g' uncompress.h
sed -i 's/EGDB_API extern /EGDB_API /' egdb.h
sed -i 's/uint32_t inline Get\(Jumpers\|Movers\)/uint32_t Get\1/' board.h
ln -s moveGen.h movegen.h
ln -s NeuralNet neuralNet

# -march=native: GuiNN's defines.h asks for AVX2 (any x86-64 since about 2013).
files="board.cpp checkersNN.cpp database.cpp edDatabase.cpp engine.cpp
    evaluate.cpp movegen.cpp openingBook.cpp search.cpp transcript.cpp
    kr_db_stubs.cpp NeuralNet/NeuralNet.cpp"
# shellcheck disable=SC2086
g++ -std=c++17 -O3 -march=native -DNDEBUG -w -pthread \
    -I"$here/compat" -I"$src/src" -include "$here/compat/windows.h" \
    -o "$out/guinn_engine" $files "$here/guinn_engine.cpp"
cp "$src/bin/Nets206.gnn" "$src/bin/database.jef" "$out/"
echo "$out/guinn_engine"
