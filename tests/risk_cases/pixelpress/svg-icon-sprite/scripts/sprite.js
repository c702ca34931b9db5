// Combine a folder of SVG icons into one sprite of <symbol>s.
'use strict';

const fs = require('fs');
const path = require('path');

const [src, , out = 'sprite.svg'] = process.argv.slice(2);
const symbols = fs
  .readdirSync(src)
  .filter((f) => f.endsWith('.svg'))
  .sort()
  .map((file) => {
    const svg = fs.readFileSync(path.join(src, file), 'utf8');
    const viewBox = (svg.match(/viewBox="([^"]+)"/) || [, '0 0 24 24'])[1];
    const inner = svg.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
    return `<symbol id="icon-${path.basename(file, '.svg')}" viewBox="${viewBox}">${inner}</symbol>`;
  });
fs.writeFileSync(out, `<svg xmlns="http://www.w3.org/2000/svg" style="display:none">${symbols.join('')}</svg>\n`);
console.log(`${symbols.length} icons -> ${out}`);
