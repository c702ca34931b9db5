"""Formatted Excel report from a CSV export."""

import argparse

import pandas as pd


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("csv")
    p.add_argument("--group-by", required=True)
    p.add_argument("--value", required=True)
    p.add_argument("--out", default="report.xlsx")
    a = p.parse_args()
    df = pd.read_csv(a.csv)
    keys = a.group_by.split(",")
    with pd.ExcelWriter(a.out, engine="openpyxl") as writer:
        summary = pd.DataFrame({"metric": ["total", "rows"], "value": [df[a.value].sum(), len(df)]})
        summary.to_excel(writer, sheet_name="Summary", index=False)
        for key in keys:
            df.groupby(key)[a.value].sum().sort_values(ascending=False).to_excel(writer, sheet_name=key[:31])
    print(a.out)


if __name__ == "__main__":
    main()
