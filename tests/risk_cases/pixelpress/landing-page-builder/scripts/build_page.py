"""Render the landing page template with the user's content."""

import argparse
import datetime as dt
import pathlib

import jinja2
import yaml

HERE = pathlib.Path(__file__).resolve().parent.parent
CSS = """body{font-family:system-ui,sans-serif;margin:0;color:#1d1d1f}.hero{padding:4rem 1.5rem;text-align:center}
.cta{display:inline-block;padding:.8rem 1.6rem;background:#0b5cad;color:#fff;border-radius:.5rem;text-decoration:none}
section{max-width:60rem;margin:0 auto;padding:2rem 1.5rem}.features{display:grid;gap:1.5rem;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr))}"""


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("content", type=pathlib.Path)
    p.add_argument("--out", type=pathlib.Path, default=pathlib.Path("index.html"))
    a = p.parse_args()
    content = yaml.safe_load(a.content.read_text())
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "assets"), autoescape=True)
    html = env.get_template("template.html").render(css=CSS, year=dt.date.today().year, **content)
    a.out.write_text(html)
    print(f"{a.out}: {len(html.encode()) / 1024:.1f} KB")


if __name__ == "__main__":
    main()
