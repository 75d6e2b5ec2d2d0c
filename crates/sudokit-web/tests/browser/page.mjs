// Drives the sudokit page in headless Chromium: loads it, runs Moler's engine on the
// Lo-Shu puzzle (the page's default), steps forward until the step counter reads 50
// (figure 14.12), reads the board, takes a screenshot and measures in the browser
// whether it is blank, steps back once, then switches to "solve by hand", asks for a
// hint and applies it; then generates an X-sudoku (asks a hint on it), a jigsaw
// with X's diagonals (the map in $JIGSAW), a puzzle with extra houses of its own (the
// maps in $EXTRA), and those with X's diagonals too, and reads how they are drawn and
// how the controls show the variant the server sent back. Prints one JSON object for
// tests/browser.rs to check.
//
// usage: node page.mjs URL SCREENSHOT.png
import { chromium } from 'playwright-core';

const [url, shot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const out = { errors: [] };
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.on('pageerror', (e) => out.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') out.errors.push(m.text()); });
  page.setDefaultTimeout(20000);
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]');
  await page.selectOption('#engine', 'moler');
  await page.click('#run');
  await page.waitForFunction(() => document.getElementById('engine-stats').textContent.includes('solved'));
  out.stats = await page.textContent('#engine-stats');
  out.counts = [];
  let clicks = 0;
  while ((await page.textContent('#step-count')) !== '50') {
    await page.click('#forward');
    out.counts.push(+(await page.textContent('#step-count')));
    if (++clicks > 1000) throw new Error('the step counter never read 50');
  }
  out.clicks = clicks;
  const board = () => page.$$eval('#board .cell', (cells) =>
    cells.map((c) => (c.querySelector('.cands') || !c.textContent ? '.' : c.textContent)).join(''));
  out.board = await board();
  out.kinds = await page.$$eval('#board .cell', (cells) => cells.map((c) =>
    c.classList.contains('given') ? 'g' : c.classList.contains('single') ? 's' : c.classList.contains('guess') ? 't' : '.').join(''));
  const png = await page.screenshot({ path: shot });
  // Blank or not, measured by the browser itself: distinct colours in the image.
  out.colours = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width; canvas.height = img.height;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, img.width, img.height).data;
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4 * 7) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return seen.size;
  }, png.toString('base64'));
  await page.click('#back');
  out.after_back = +(await page.textContent('#step-count'));
  // Solve by hand: a hint, then apply it.
  await page.click('#tab-hand');
  out.filled_before = await page.textContent('#step-count');
  await page.click('#hint');
  await page.waitForFunction(() => document.getElementById('hint-text').textContent.length > 0);
  out.hint = await page.textContent('#hint-text');
  out.highlighted = await page.$$eval('#board .hl-cell', (c) => c.length);
  await page.click('#apply-hint');
  out.filled_after = await page.textContent('#step-count');
  out.message = await page.textContent('#message');
  // Variants: an X-sudoku (its diagonals shaded, boxes drawn), a hint on it (the
  // variant travels with the request), then a jigsaw (its regions outlined).
  const generated = async () => {
    await page.click('#generate');
    await page.waitForFunction(() => document.getElementById('message').textContent.startsWith('generated'));
  };
  // The controls as the page shows them: the kind, the extra houses ticked, the maps.
  const controls = () => page.evaluate(() => ({
    kind: document.getElementById('variant').value,
    rules: Array.from(document.querySelectorAll('#rules input:checked')).map((b) => b.dataset.rule),
    field: document.getElementById('extra').value,
  }));
  const rule = (name) => `#rules input[data-rule="${name}"]`;
  await page.check(rule('x'));
  await generated();
  out.x_shaded = await page.$$eval('#board .shaded', (c) => c.length);
  out.x_box_right = await page.$$eval('#board .box-right', (c) => c.length);
  await page.click('#hint');
  await page.waitForFunction(() => document.getElementById('hint-text').textContent.length > 0);
  out.x_hint = await page.textContent('#hint-text');
  // A jigsaw with X's diagonals still ticked (windoku needs boxes: its box is off).
  await page.selectOption('#variant', 'jigsaw');
  out.jigsaw_windoku_disabled = await page.isDisabled(rule('windoku'));
  await page.fill('#regions', process.env.JIGSAW);
  await generated();
  out.jigsaw_box_right = await page.$$eval('#board .cell', (cells) =>
    cells.map((c) => (c.classList.contains('box-right') ? '|' : '.')).join(''));
  out.jigsaw_shaded = await page.$$eval('#board .shaded', (c) => c.length);
  out.jigsaw_controls = await controls();
  // Extra houses from two maps typed into their own field (extra=MAP,extra=MAP), on
  // sudoku's boxes; then the same maps with X's diagonals too.
  await page.selectOption('#variant', '');
  await page.uncheck(rule('x'));
  await page.fill('#extra', process.env.EXTRA);
  await generated();
  out.extra_shaded = await page.$$eval('#board .shaded', (c) => c.length);
  out.extra_controls = await controls();
  await page.check(rule('x'));
  await generated();
  out.x_extra_shaded = await page.$$eval('#board .shaded', (c) => c.length);
  out.x_extra_controls = await controls();
} catch (e) {
  out.errors.push('driver: ' + e.message);
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
