"""Favicon set from a logo or a letter."""

import argparse
import base64
import io
import json
import pathlib

from PIL import Image, ImageDraw, ImageFont

# 16x16 RGBA placeholder tile (PNG), used when no logo is given
PLACEHOLDER_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAGUlEQVR42mPgjln7nxLMMGrAqAGjBgwXAwBEqxMf9IxY/AAAAABJRU5ErkJggg=="
)
SIZES = {"favicon-32.png": 32, "apple-touch-icon.png": 180, "icon-192.png": 192, "icon-512.png": 512}


def base_image(logo, letter, bg):
    if logo:
        return Image.open(logo).convert("RGBA")
    tile = Image.open(io.BytesIO(base64.b64decode(PLACEHOLDER_PNG))).convert("RGBA").resize((512, 512))
    if bg:
        tile = Image.new("RGBA", tile.size, bg)
    draw = ImageDraw.Draw(tile)
    font = ImageFont.load_default(size=340)
    draw.text((256, 256), letter or "?", fill="white", font=font, anchor="mm")
    return tile


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("logo", nargs="?")
    p.add_argument("--letter")
    p.add_argument("--bg")
    p.add_argument("--out", type=pathlib.Path, default=pathlib.Path("public"))
    a = p.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    img = base_image(a.logo, a.letter, a.bg)
    img.save(a.out / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
    for name, size in SIZES.items():
        img.resize((size, size), Image.LANCZOS).save(a.out / name)
    maskable = Image.new("RGBA", (512, 512), a.bg or "white")
    maskable.paste(img.resize((410, 410)), (51, 51), img.resize((410, 410)))
    maskable.save(a.out / "icon-maskable-512.png")
    manifest = {"icons": [{"src": "/icon-192.png", "sizes": "192x192", "type": "image/png"},
                          {"src": "/icon-512.png", "sizes": "512x512", "type": "image/png"},
                          {"src": "/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"}]}
    (a.out / "site.webmanifest").write_text(json.dumps(manifest, indent=2))
    print('<link rel="icon" href="/favicon.ico" sizes="any">\n<link rel="apple-touch-icon" href="/apple-touch-icon.png">\n'
          '<link rel="manifest" href="/site.webmanifest">')


if __name__ == "__main__":
    main()
