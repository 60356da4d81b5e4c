// Drawing: the SVG overlay escapes labels, and boxes land on the pixels where they belong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classColour, drawOnRgb, overlaySvg } from '../../src/post/draw.ts';

test('labels are escaped in the overlay; a caption is drawn at the top left', () => {
  const svg = overlaySvg(100, 80, [{ x1: 10, y1: 20, x2: 50, y2: 60, score: 0.5, classId: 3, label: 'a<b>&"c"' }], 'x & y');
  assert.match(svg, /a&lt;b&gt;&amp;&quot;c&quot; 0\.50/);
  assert.match(svg, /x &amp; y/);
  assert.match(svg, new RegExp(`stroke="${classColour(3)}"`));
});

test('a box drawn on a raw frame colours its outline with the class colour and leaves the inside', async () => {
  const width = 64, height = 48;
  const rgb = Buffer.alloc(width * height * 3, 0);
  const box = { x1: 10, y1: 20, x2: 50, y2: 40, score: 0.9, classId: 0 };
  const out = await drawOnRgb(rgb, width, height, [box]);
  assert.equal(out.length, rgb.length);
  const at = (x: number, y: number) => [...out.subarray((y * width + x) * 3, (y * width + x) * 3 + 3)];
  const expected = classColour(0).match(/[0-9a-f]{2}/g)!.map((h) => parseInt(h, 16));
  // On the left edge, halfway down; well inside; far outside.
  const edge = at(10, 30);
  edge.forEach((v, c) => assert.ok(Math.abs(v - expected[c]!) < 80, `edge pixel ${edge} vs ${expected}`));
  assert.deepEqual(at(30, 30), [0, 0, 0]);
  assert.deepEqual(at(60, 45), [0, 0, 0]);
  // Nothing to draw: the frame comes back as it was.
  assert.equal(await drawOnRgb(rgb, width, height, []), rgb);
});
