// Test vectors for hash_pixel_data and tile_signatures, computed by the spec's own JavaScript.
//
//   node scripts/make_hash_vectors.mjs > tests/data/hash_vectors.json
//
// quantizeChannel and hashPixelData below are copied verbatim from the spec
// ("Tile signatures"); the buffers are Uint8ClampedArray, as getImageData returns.
// tests/signatures/test_signatures_hash.py compares both flagcore implementations with this file.

const COLOR_QUANTUM = 32;

const quantizeChannel = (channel) =>
  Math.min(255, Math.round(channel / COLOR_QUANTUM) * COLOR_QUANTUM);

const hashPixelData = (pixelData, stride = 8) => {
  let hash = 2166136261;
  for (let index = 0; index < pixelData.length; index += stride) {
    hash ^= quantizeChannel(pixelData[index] ?? 0);
    hash = Math.imul(hash, 16777619);
    hash ^= quantizeChannel(pixelData[index + 1] ?? 0);
    hash = Math.imul(hash, 16777619);
    hash ^= quantizeChannel(pixelData[index + 2] ?? 0);
    hash = Math.imul(hash, 16777619);
  }
  return `${hash >>> 0}`;
};

// mulberry32, so the buffers are reproducible.
function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rng = mulberry32(20260927);
const below = (n) => Math.floor(rng() * n);

// Byte values where round-half-up and round-half-even disagree (16, 48, 80, ...), their
// neighbours, and the clamp at the top (240..255 -> 255).
const EDGES = [];
for (let k = 0; k <= 16; k++) for (const d of [-1, 0, 1]) {
  const v = k * 16 + d;
  if (v >= 0 && v <= 255) EDGES.push(v);
}

const b64 = (arr) => Buffer.from(arr.buffer, arr.byteOffset, arr.length).toString("base64");

const hashes = [];
const addHash = (kind, data) => {
  const out = { kind, data: b64(data), hashes: {} };
  for (const stride of [1, 2, 3, 4, 5, 7, 8, 9, 16, 1000]) {
    out.hashes[stride] = hashPixelData(data, stride);
  }
  out.default = hashPixelData(data);
  hashes.push(out);
};

const LENGTHS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 16, 17, 23, 31, 33, 63, 64, 65, 127,
                 255, 257, 1001, 4099];
for (const n of LENGTHS) {
  const random = new Uint8ClampedArray(n);
  const edge = new Uint8ClampedArray(n);
  for (let i = 0; i < n; i++) { random[i] = below(256); edge[i] = EDGES[below(EDGES.length)]; }
  addHash("random", random);
  addHash("edge", edge);
}
const ramp = new Uint8ClampedArray(256 * 3);
for (let i = 0; i < ramp.length; i++) ramp[i] = i % 256;
addHash("ramp", ramp);
for (const v of [0, 15, 16, 17, 48, 112, 239, 240, 255]) {
  addHash("constant", new Uint8ClampedArray(37).fill(v));
}

// Tiles cut as the spec's canvas would: getImageData(c*tw + inset, r*th + inset,
// tw - 2*inset, th - 2*inset), whose arguments are WebIDL longs (truncated toward zero).
function getImageData(image, width, sx, sy, sw, sh) {
  [sx, sy, sw, sh] = [sx, sy, sw, sh].map(Math.trunc);
  const out = new Uint8ClampedArray(sw * sh * 4);
  for (let y = 0; y < sh; y++) {
    const from = ((sy + y) * width + sx) * 4;
    out.set(image.subarray(from, from + sw * 4), y * sw * 4);
  }
  return out;
}

const tiles = [];
const SHAPES = [
  // height, width, columns, rows, inset, edge-valued?
  [96, 144, 3, 2, 4, false], [160, 240, 5, 3, 4, true], [67, 192, 4, 3, 4, false],
  [53, 77, 3, 2, 1, true], [29, 31, 3, 4, 0, false], [58, 239, 5, 3, 4, true],
  [7, 9, 2, 2, 1, false], [64, 5, 1, 3, 0, true],
];
for (const [height, width, columns, rows, inset, edge] of SHAPES) {
  const image = new Uint8ClampedArray(height * width * 4);
  for (let i = 0; i < image.length; i++) {
    image[i] = edge ? EDGES[below(EDGES.length)] : below(256);
  }
  const tw = width / columns, th = height / rows;
  const signatures = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) {
    const data = getImageData(image, width, c * tw + inset, r * th + inset,
                              tw - inset * 2, th - inset * 2);
    signatures.push(hashPixelData(data));
  }
  tiles.push({ height, width, columns, rows, inset, image: b64(image), signatures });
}

process.stdout.write(JSON.stringify({
  about: "made by scripts/make_hash_vectors.mjs with node " + process.version,
  hashes, tiles,
}) + "\n");
