// Runs @imgly/background-removal-node (ONNX model shipped inside the package) in its own process, so the heavy
// inference never blocks the server and its memory is returned when it exits.
// argv: <input image path> <output png path>. Writes an RGBA PNG the size of the input.
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { removeBackground } from '@imgly/background-removal-node';

const [input, output] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const dist = path.dirname(require.resolve('@imgly/background-removal-node'));
const bytes = await readFile(input);
const type = input.endsWith('.png') ? 'image/png' : input.endsWith('.webp') ? 'image/webp' : 'image/jpeg';
const blob = await removeBackground(new Blob([bytes], { type }), {
  publicPath: `${pathToFileURL(dist).href}/`,
  model: 'small',
  output: { format: 'image/png' },
});
await writeFile(output, Buffer.from(await blob.arrayBuffer()));
