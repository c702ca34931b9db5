// Build a .pptx deck from a JSON outline with pptxgenjs.
const fs = require("fs");
const PptxGenJS = require("pptxgenjs");

function addSlide(pptx, spec) {
  const slide = pptx.addSlide();
  if (spec.layout === "title") {
    slide.addText(spec.title, { x: 0.5, y: 2.0, w: 9, h: 1, fontSize: 36, bold: true });
    if (spec.subtitle) slide.addText(spec.subtitle, { x: 0.5, y: 3.1, w: 9, h: 0.6, fontSize: 20 });
  } else if (spec.layout === "bullets") {
    slide.addText(spec.title, { x: 0.5, y: 0.3, w: 9, h: 0.8, fontSize: 28, bold: true });
    slide.addText(spec.bullets.map((b) => ({ text: b, options: { bullet: true } })), { x: 0.7, y: 1.3, w: 8.5, h: 4, fontSize: 20 });
  } else if (spec.layout === "chart") {
    slide.addText(spec.title, { x: 0.5, y: 0.3, w: 9, h: 0.8, fontSize: 28, bold: true });
    const type = spec.chart.type === "bar" ? pptx.ChartType.bar : pptx.ChartType.line;
    slide.addChart(type, [{ name: spec.title, labels: spec.chart.labels, values: spec.chart.values }], { x: 0.7, y: 1.3, w: 8.5, h: 4 });
  }
  if (spec.notes) slide.addNotes(spec.notes);
}

async function main([input, output]) {
  const deck = JSON.parse(fs.readFileSync(input, "utf8"));
  const pptx = new PptxGenJS();
  pptx.title = deck.title;
  deck.slides.forEach((s) => addSlide(pptx, s));
  await pptx.writeFile({ fileName: output });
  console.log(output);
}

main(process.argv.slice(2));
