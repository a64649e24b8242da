#!/bin/sh
# Writes ui/fonts/canvas-cjk-{regular,bold}.otf: the glyphs of the Chinese
# words the canvas draws (the canvas.* messages of
# web/locales/embed/zh-CN.json) cut from Noto Sans CJK SC, which the Go
# fonts lack. The whole font is 16 MB; the cut is a few KB of main.wasm.
# Run it after changing a Chinese canvas word: go test ./ui (-tags ebiten
# not needed) fails while a word has a character no canvas font has.
# Needs Debian's fonts-noto-cjk and python3-fonttools (apt-get install).
set -eu
cd "$(dirname "$0")/.."
noto=/usr/share/fonts/opentype/noto
py=/usr/bin/python3
text=$($py - <<'PY'
import json
cat = json.load(open("web/locales/embed/zh-CN.json", encoding="utf-8"))
# Characters from CJK Radicals (U+2E80) up: CJK, its punctuation and the
# fullwidth forms; the Go fonts have the Latin, Greek and symbols below.
chars = sorted({c for k, v in cat.items() if k.startswith("canvas.") for c in v if ord(c) >= 0x2E80})
print("".join(chars))
PY
)
for weight in Regular Bold; do
  out=ui/fonts/canvas-cjk-$(echo $weight | tr A-Z a-z).otf
  # Index 2 of the collection is Noto Sans CJK SC.
  $py -m fontTools.subset "$noto/NotoSansCJK-$weight.ttc" --font-number=2 --text="$text" \
    --output-file="$out" --layout-features='' --no-hinting --desubroutinize \
    --name-IDs='0,1,2,3,4,5,6,13,14' --name-languages=0x409 --drop-tables+=VORG,vhea,vmtx,GSUB,GPOS,GDEF,BASE
  echo "$out: $(wc -c <"$out") bytes, $(printf %s "$text" | wc -m) characters"
done
