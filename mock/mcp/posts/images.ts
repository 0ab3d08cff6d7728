// Pictures: records, their PNG bytes (made once and cached), the brand library (mediaIds), and the public
// picture URLs the mock serves itself at /images/<id>.png (no auth, like unsigned cloud-storage addresses).
// An erased picture answers 404. Videos are stored as clips whose cover picture is what the URL serves.
import type http from "node:http";
import { createHash } from "node:crypto";
import { encodePng, readPngSize, sizeForAspect, type Rgb } from "../../png.js";
import { CappedStore } from "../../capped-store.js";
import { caps, newId, type Picture } from "./store.js";

const palette: Rgb[] = [
  { r: 232, g: 116, b: 59 },
  { r: 46, g: 134, b: 171 },
  { r: 162, g: 59, b: 114 },
  { r: 241, g: 143, b: 1 },
  { r: 59, g: 178, b: 115 },
  { r: 88, g: 90, b: 180 },
  { r: 199, g: 62, b: 29 },
  { r: 34, g: 87, b: 122 },
];

export class ImageStore {
  readonly #bytes = new Map<string, Buffer>();
  readonly pictures = new CappedStore<Picture>(caps.picturesPerBrand, (p) => this.#bytes.delete(p.id));
  /** mediaId → pictureId, per brand. */
  readonly library = new CappedStore<{ mediaId: string; pictureId: string }>(caps.picturesPerBrand);

  constructor(private readonly origin: () => URL) {}

  create(brandId: string, aspect: [number, number], details: Partial<Omit<Picture, "id" | "brandId" | "width" | "height">> = {}): Picture {
    const { width, height } = sizeForAspect(aspect[0], aspect[1]);
    return this.#add({ id: newId().replace(/-/g, ""), brandId, kind: "image", width, height, altText: null, slideText: null, slideTextSource: null, ...details });
  }

  /** A new picture of the same size and kind as another (a copy gets its own URL). */
  copy(brandId: string, source: Picture): Picture {
    return this.#add({ ...source, id: newId().replace(/-/g, ""), brandId });
  }

  #add(picture: Picture): Picture {
    this.pictures.set(picture.id, picture.brandId, picture);
    return picture;
  }

  get(id: string): Picture | undefined {
    return this.pictures.get(id);
  }

  url(id: string): string {
    return new URL(`/images/${id}.png`, this.origin()).href;
  }

  /** The picture one of the mock's own URLs names, or undefined (not ours, or erased). */
  fromUrl(address: string): Picture | undefined | "not_ours" {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      return "not_ours";
    }
    if (url.host !== this.origin().host) return "not_ours";
    const m = /^\/images\/([A-Za-z0-9]+)\.png$/.exec(url.pathname);
    if (!m) return "not_ours";
    return this.pictures.get(m[1]!);
  }

  /** The PNG bytes of a picture (made on first use, then cached). */
  bytes(picture: Picture): Buffer {
    let bytes = this.#bytes.get(picture.id);
    if (!bytes) {
      const colour = palette[createHash("sha256").update(picture.id).digest()[0]! % palette.length]!;
      bytes = encodePng(picture.width, picture.height, colour);
      this.#bytes.set(picture.id, bytes);
    }
    return bytes;
  }

  /** Width ÷ height read back from the picture's PNG header, as the real service reads its files. */
  aspectOf(picture: Picture): number {
    const size = readPngSize(this.bytes(picture));
    if (!size) throw new Error(`picture ${picture.id} is not a PNG`);
    return size.width / size.height;
  }

  addToLibrary(brandId: string, pictureId: string): string {
    const mediaId = newId();
    this.library.set(mediaId, brandId, { mediaId, pictureId });
    return mediaId;
  }

  /** The picture behind a brand library id, or undefined. */
  libraryPicture(brandId: string, mediaId: string): Picture | undefined {
    const entry = this.library.get(mediaId);
    if (!entry) return undefined;
    const picture = this.pictures.get(entry.pictureId);
    return picture && picture.brandId === brandId ? picture : undefined;
  }

  erase(brandId: string): void {
    for (const p of this.pictures.deleteOwner(brandId)) this.#bytes.delete(p.id);
    this.library.deleteOwner(brandId);
  }

  /** Serves /images/<id>.png; false for any other path. */
  serveHttp(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean {
    if (!url.pathname.startsWith("/images/")) return false;
    const send = (status: number, type: string, body: Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": type, "content-length": body.length, ...headers });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(405, "text/plain; charset=utf-8", Buffer.from("Pictures are read with GET.\n"), { allow: "GET, HEAD" });
      return true;
    }
    const m = /^\/images\/([A-Za-z0-9]+)\.png$/.exec(url.pathname);
    const picture = m ? this.pictures.get(m[1]!) : undefined;
    if (!picture) {
      send(404, "text/plain; charset=utf-8", Buffer.from("No such picture.\n"));
      return true;
    }
    send(200, "image/png", this.bytes(picture), { "cache-control": "public, max-age=31536000, immutable" });
    return true;
  }
}
