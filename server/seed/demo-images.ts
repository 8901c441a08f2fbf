// The demo catalogue's product photos, made at seed time: nothing is downloaded and no binary sits in
// the repository. Each picture is a product-like shape (a phone, a kadai, a vase, …) in a colour on a
// light studio background, drawn as an SVG of basic shapes (no text, so no fonts) and rendered by sharp
// to an 800 × 800 JPEG, as a seller's upload would be. They are stored exactly like uploads
// (server/lib/uploads.ts storeFile, under the product media folder) with the derivatives the upload
// makes (media-images.ts writeDerivatives). Every product image is a file of its own, since deleting a
// product deletes its files; each distinct picture is rendered, with its derivatives, once per machine.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadSharp } from '../lib/load-sharp';
import type { FileStorage } from '../lib/storage/types';
import { MEDIA_FOLDER } from '../modules/media/media';
import {
  DERIVATIVE_SIZES,
  DERIVATIVE_TYPE,
  type DerivativeName,
  derivativeNames,
  derivativePathOf,
  renderDerivatives,
} from '../modules/media/media-images';
import { type PictureKind, pictureKinds } from './product-generator';

export const DEMO_IMAGE_SIZE = 800;

/** Product colours the pictures come in; each kind has two of them. */
const TINTS = [
  '#1f2937',
  '#2563eb',
  '#dc2626',
  '#059669',
  '#d97706',
  '#db2777',
  '#7c3aed',
  '#0d9488',
  '#92400e',
  '#64748b',
];

/** The shape of each kind, drawn on an 800 × 800 canvas; `c` is the product's colour. */
const shapes: Record<PictureKind, (c: string) => string> = {
  phone: (c) => `
    <rect x="255" y="95" width="290" height="580" rx="44" fill="${c}"/>
    <rect x="272" y="135" width="256" height="500" rx="18" fill="url(#screen)"/>
    <circle cx="400" cy="116" r="7" fill="#0b1220"/>
    <rect x="548" y="230" width="8" height="70" rx="3" fill="${c}"/>`,
  watch: (c) => `
    <rect x="330" y="80" width="140" height="200" rx="30" fill="${c}"/>
    <rect x="330" y="520" width="140" height="200" rx="30" fill="${c}"/>
    <rect x="285" y="250" width="230" height="300" rx="60" fill="#27303b"/>
    <rect x="305" y="272" width="190" height="256" rx="44" fill="url(#screen)"/>
    <circle cx="400" cy="400" r="62" fill="none" stroke="${c}" stroke-width="12"/>
    <rect x="515" y="360" width="18" height="50" rx="6" fill="#27303b"/>`,
  headphones: (c) => `
    <path d="M220 470 C220 200 580 200 580 470" fill="none" stroke="${c}" stroke-width="42" stroke-linecap="round"/>
    <rect x="170" y="420" width="120" height="210" rx="50" fill="${c}"/>
    <rect x="510" y="420" width="120" height="210" rx="50" fill="${c}"/>
    <rect x="195" y="450" width="70" height="150" rx="30" fill="#000" opacity="0.25"/>
    <rect x="535" y="450" width="70" height="150" rx="30" fill="#000" opacity="0.25"/>`,
  charger: (c) => `
    <rect x="300" y="300" width="220" height="250" rx="36" fill="#f8fafc" stroke="${c}" stroke-width="14"/>
    <rect x="350" y="230" width="26" height="80" rx="6" fill="#94a3b8"/>
    <rect x="444" y="230" width="26" height="80" rx="6" fill="#94a3b8"/>
    <path d="M410 550 C410 660 220 600 200 700" fill="none" stroke="${c}" stroke-width="22" stroke-linecap="round"/>
    <circle cx="410" cy="430" r="16" fill="${c}"/>`,
  shirt: (c) => `
    <path d="M300 140 L220 170 L110 300 L190 370 L250 310 L250 690 L550 690 L550 310 L610 370 L690 300 L580 170 L500 140 C480 190 320 190 300 140 Z" fill="${c}"/>
    <path d="M300 140 C320 200 480 200 500 140 L470 135 C450 170 350 170 330 135 Z" fill="#000" opacity="0.2"/>
    <line x1="400" y1="190" x2="400" y2="690" stroke="#000" stroke-opacity="0.15" stroke-width="6"/>
    <circle cx="420" cy="260" r="8" fill="#f8fafc"/><circle cx="420" cy="360" r="8" fill="#f8fafc"/>
    <circle cx="420" cy="460" r="8" fill="#f8fafc"/><circle cx="420" cy="560" r="8" fill="#f8fafc"/>`,
  fabric: (c) => `
    <rect x="170" y="470" width="460" height="150" rx="14" fill="${c}"/>
    <rect x="190" y="360" width="420" height="130" rx="14" fill="${c}" opacity="0.85"/>
    <rect x="210" y="250" width="380" height="130" rx="14" fill="${c}" opacity="0.7"/>
    <rect x="170" y="590" width="460" height="22" fill="#e0b341"/>
    <rect x="190" y="462" width="420" height="18" fill="#e0b341"/>
    <rect x="210" y="352" width="380" height="16" fill="#e0b341"/>
    <circle cx="300" cy="545" r="14" fill="#e0b341"/><circle cx="400" cy="545" r="14" fill="#e0b341"/>
    <circle cx="500" cy="545" r="14" fill="#e0b341"/>`,
  pan: (c) => `
    <ellipse cx="380" cy="430" rx="240" ry="230" fill="#2b2f36"/>
    <ellipse cx="380" cy="430" rx="200" ry="190" fill="#3b4250"/>
    <ellipse cx="330" cy="380" rx="90" ry="60" fill="#ffffff" opacity="0.08"/>
    <rect x="600" y="405" width="170" height="50" rx="25" fill="${c}"/>
    <rect x="90" y="410" width="70" height="40" rx="20" fill="${c}"/>`,
  lamp: (c) => `
    <path d="M270 150 L530 150 L610 380 L190 380 Z" fill="${c}"/>
    <path d="M270 150 L530 150 L545 195 L255 195 Z" fill="#000" opacity="0.15"/>
    <rect x="388" y="380" width="24" height="260" fill="#8d7b62"/>
    <ellipse cx="400" cy="655" rx="150" ry="34" fill="#8d7b62"/>
    <ellipse cx="400" cy="380" rx="210" ry="16" fill="#fff7d6" opacity="0.8"/>`,
  chair: (c) => `
    <rect x="250" y="130" width="300" height="280" rx="26" fill="${c}"/>
    <rect x="220" y="400" width="360" height="80" rx="20" fill="${c}"/>
    <rect x="245" y="480" width="34" height="210" rx="10" fill="#6b4f35"/>
    <rect x="521" y="480" width="34" height="210" rx="10" fill="#6b4f35"/>
    <rect x="290" y="170" width="220" height="200" rx="18" fill="#000" opacity="0.12"/>`,
  vase: (c) => `
    <path d="M340 120 L460 120 L450 200 C600 260 620 520 520 660 L280 660 C180 520 200 260 350 200 Z" fill="${c}"/>
    <path d="M262 330 L538 330 L544 370 L256 370 Z" fill="#f8fafc" opacity="0.75"/>
    <path d="M240 470 L560 470 L556 505 L244 505 Z" fill="#f8fafc" opacity="0.75"/>
    <ellipse cx="400" cy="122" rx="60" ry="12" fill="#000" opacity="0.3"/>`,
  jar: (c) => `
    <rect x="270" y="250" width="260" height="420" rx="40" fill="#f1f5f9" stroke="#cbd5e1" stroke-width="6"/>
    <rect x="285" y="170" width="230" height="100" rx="18" fill="${c}"/>
    <rect x="270" y="380" width="260" height="180" fill="${c}" opacity="0.85"/>
    <circle cx="400" cy="470" r="46" fill="#f8fafc" opacity="0.9"/>
    <rect x="300" y="270" width="30" height="380" rx="12" fill="#ffffff" opacity="0.6"/>`,
  notebook: (c) => `
    <g transform="rotate(-8 400 400)">
      <rect x="230" y="140" width="360" height="500" rx="18" fill="${c}"/>
      <rect x="260" y="160" width="310" height="460" rx="10" fill="#fbfaf7"/>
      <line x1="290" y1="250" x2="540" y2="250" stroke="#cbd5e1" stroke-width="6"/>
      <line x1="290" y1="320" x2="540" y2="320" stroke="#cbd5e1" stroke-width="6"/>
      <line x1="290" y1="390" x2="540" y2="390" stroke="#cbd5e1" stroke-width="6"/>
      <line x1="290" y1="460" x2="540" y2="460" stroke="#cbd5e1" stroke-width="6"/>
      <circle cx="245" cy="200" r="12" fill="#94a3b8"/><circle cx="245" cy="300" r="12" fill="#94a3b8"/>
      <circle cx="245" cy="400" r="12" fill="#94a3b8"/><circle cx="245" cy="500" r="12" fill="#94a3b8"/>
    </g>
    <rect x="560" y="300" width="26" height="330" rx="8" fill="#334155" transform="rotate(18 573 465)"/>`,
  ring: (c) => `
    <circle cx="400" cy="450" r="180" fill="none" stroke="#d4a937" stroke-width="44"/>
    <circle cx="400" cy="450" r="180" fill="none" stroke="#f5d77a" stroke-width="10" opacity="0.7"/>
    <path d="M330 250 L400 170 L470 250 L400 310 Z" fill="${c}"/>
    <path d="M330 250 L400 170 L400 310 Z" fill="#ffffff" opacity="0.3"/>`,
  dumbbell: (c) => `
    <rect x="200" y="385" width="400" height="34" rx="14" fill="#9ca3af"/>
    <rect x="150" y="270" width="80" height="260" rx="20" fill="${c}"/>
    <rect x="230" y="300" width="50" height="200" rx="16" fill="${c}"/>
    <rect x="570" y="270" width="80" height="260" rx="20" fill="${c}"/>
    <rect x="520" y="300" width="50" height="200" rx="16" fill="${c}"/>`,
};

function svgOf(kind: PictureKind, tint: string, background: string): string {
  const size = DEMO_IMAGE_SIZE;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 800 800">
  <defs>
    <radialGradient id="bg" cx="50%" cy="38%" r="75%"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="${background}"/></radialGradient>
    <linearGradient id="screen" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1e3a5f"/><stop offset="0.55" stop-color="#0f172a"/><stop offset="1" stop-color="#312e81"/></linearGradient>
  </defs>
  <rect width="800" height="800" fill="url(#bg)"/>
  <ellipse cx="400" cy="712" rx="230" ry="26" fill="#000" opacity="0.12"/>
  ${shapes[kind](tint)}
</svg>`;
}

export interface DemoPicture {
  kind: PictureKind;
  /** The JPEG as a seller would upload it. */
  bytes: Buffer;
  /** Its derivatives as writeDerivatives makes them. */
  derivatives: Record<DerivativeName, Buffer>;
}

const BACKGROUNDS = ['#ece7df', '#e4e9ef'];

/** Two pictures of every kind, in different colours and backgrounds: 28 pictures. */
const pictureSources = pictureKinds.flatMap((kind, index) =>
  [0, 1].map((variant) => ({
    kind,
    name: `${kind}-${variant + 1}.jpg`,
    svg: svgOf(kind, TINTS[(index * 3 + variant * 5) % TINTS.length]!, BACKGROUNDS[variant]!),
  })),
);

/**
 * Renders the pictures into `folder` (under `root`) and makes their derivatives there with the
 * uploads' own renderDerivatives, all in parallel (sharp spreads them over the cores).
 */
async function renderInto(root: string, folder: string): Promise<void> {
  await mkdir(path.join(root, folder), { recursive: true });
  const sharp = await loadSharp();
  await Promise.all(
    pictureSources.map(async (source) => {
      const relative = path.posix.join(folder, source.name);
      const original = await sharp(Buffer.from(source.svg)).jpeg({ quality: 84 }).toBuffer();
      await writeFile(path.join(root, relative), original);
      const rendered = await renderDerivatives(original);
      for (const name of derivativeNames)
        await writeFile(path.join(root, derivativePathOf(relative, name)), rendered[name]);
    }),
  );
}

async function readPictures(root: string, folder: string): Promise<DemoPicture[]> {
  return Promise.all(
    pictureSources.map(async (source) => {
      const relative = path.posix.join(folder, source.name);
      const read = await Promise.all(
        derivativeNames.map(
          async (name) => [name, await readFile(path.join(root, derivativePathOf(relative, name)))] as const,
        ),
      );
      return {
        kind: source.kind,
        bytes: await readFile(path.join(root, relative)),
        derivatives: Object.fromEntries(read) as Record<DerivativeName, Buffer>,
      };
    }),
  );
}

/**
 * The pictures with their derivatives. Rendering them takes a couple of seconds on two cores, and
 * every fresh data dir (each test server, each benchmark start) would pay it again, so they are made
 * once per machine into a cache folder named after everything they are made from (the drawings, the
 * derivative sizes, sharp's libvips). Without a writable temp folder they are made in `scratch` and
 * removed after.
 */
export async function demoPictures(scratch: string): Promise<Map<PictureKind, DemoPicture[]>> {
  const { versions } = await loadSharp();
  const key = createHash('sha256')
    .update(JSON.stringify({ pictureSources, DERIVATIVE_SIZES, vips: versions.vips }))
    .digest('hex')
    .slice(0, 16);
  const cache = path.join(os.tmpdir(), 'mp-demo-pictures', key);
  let pictures: DemoPicture[];
  try {
    pictures = await readPictures(cache, '.');
  } catch {
    try {
      // Rendered beside the cache and renamed into place: a reader never sees half a set, and two
      // processes rendering at once both succeed (the second rename finds the folder there).
      const staging = `${cache}.${randomUUID().slice(0, 8)}`;
      await renderInto(staging, '.');
      await rename(staging, cache).catch(() => rm(staging, { recursive: true, force: true }));
      pictures = await readPictures(cache, '.');
    } catch {
      const folder = `.demo-pictures-${randomUUID().slice(0, 8)}`;
      try {
        await renderInto(scratch, folder);
        pictures = await readPictures(scratch, folder);
      } finally {
        await rm(path.join(scratch, folder), { recursive: true, force: true });
      }
    }
  }
  const byKind = new Map<PictureKind, DemoPicture[]>();
  for (const picture of pictures) byKind.set(picture.kind, [...(byKind.get(picture.kind) ?? []), picture]);
  return byKind;
}

/** Where the demo's files go: the file storage, and the DATA_DIR whose scratch space renders them. */
export interface DemoFiles {
  storage: FileStorage;
  dataDir: string;
}

export interface StoredDemoImage {
  storagePath: string;
  derivatives: Record<DerivativeName, string>;
  size: number;
  width: number;
  height: number;
}

/**
 * Stores a picture as a product media file in the file storage, as an upload of its own (a random key
 * in the media folder) with its derivatives beside it where writeDerivatives puts them.
 */
export async function storeDemoImage(storage: FileStorage, picture: DemoPicture): Promise<StoredDemoImage> {
  const storagePath = path.posix.join(MEDIA_FOLDER, `${randomUUID()}.jpg`);
  await storage.put(storagePath, picture.bytes, { contentType: 'image/jpeg', ifAbsent: true });
  const derivatives = Object.fromEntries(
    derivativeNames.map((name) => [name, derivativePathOf(storagePath, name)]),
  ) as Record<DerivativeName, string>;
  await Promise.all(
    derivativeNames.map((name) =>
      storage.put(derivatives[name], picture.derivatives[name], { contentType: DERIVATIVE_TYPE }),
    ),
  );
  return {
    storagePath,
    derivatives,
    size: picture.bytes.length,
    width: DEMO_IMAGE_SIZE,
    height: DEMO_IMAGE_SIZE,
  };
}
