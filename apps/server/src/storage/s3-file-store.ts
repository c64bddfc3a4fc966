import { createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { assertSafeKey, contentTypeOf, type FileStore } from './file-store.ts';

export interface S3StoreConfig {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

const notFound = (err: unknown): boolean => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Files in an S3-compatible bucket (scale mode: every API process and worker sees the same files). Keys are the
 * same generated keys as on local disk; the API streams objects through /api/static (decision 005), so the
 * bucket stays private and the capability URLs keep working.
 */
export function createS3FileStore(cfg: S3StoreConfig): FileStore & { client: S3Client } {
  const options: S3ClientConfig = {
    region: cfg.region,
    // Path-style works with MinIO, s3rver and Ceph as well as AWS.
    forcePathStyle: Boolean(cfg.endpoint),
    ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}),
    ...(cfg.accessKeyId && cfg.secretAccessKey
      ? { credentials: { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey } }
      : {}),
    maxAttempts: 4,
  };
  const client = new S3Client(options);
  const Bucket = cfg.bucket;
  const put = async (key: string, body: Buffer, contentType: string) => {
    assertSafeKey(key);
    await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }));
  };
  return {
    client,
    async put(key, body, contentType) {
      const buffer = Buffer.isBuffer(body) ? body : Buffer.concat(await Readable.from(body).toArray());
      await put(key, buffer, contentType);
    },
    async putFile(key, localPath, contentType) {
      await put(key, await readFile(localPath), contentType);
    },
    async get(key, range) {
      assertSafeKey(key);
      try {
        const out = await client.send(
          new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
        if (!out.Body) return null;
        // A ranged answer's Content-Length is the part's; the whole object's size follows the slash.
        const total = range ? Number(/\/(\d+)$/.exec(out.ContentRange ?? '')?.[1] ?? Number.NaN) : Number.NaN;
        return {
          body: out.Body as Readable,
          size: Number.isFinite(total) ? total : Number(out.ContentLength ?? 0),
          contentType: out.ContentType ?? contentTypeOf(key),
        };
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async head(key) {
      assertSafeKey(key);
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: Number(out.ContentLength ?? 0), contentType: out.ContentType ?? contentTypeOf(key) };
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async toLocalFile(key, localPath) {
      const file = await this.get(key);
      if (!file) throw new Error(`no stored file ${key}`);
      await mkdir(path.dirname(localPath), { recursive: true });
      await pipeline(file.body, createWriteStream(localPath));
    },
    async exists(key) {
      assertSafeKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (err) {
        if (notFound(err)) return false;
        throw err;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: [{ Key: key }] } }));
    },
    async deletePrefix(prefix) {
      const clean = `${prefix.replace(/\/+$/, '')}/`;
      assertSafeKey(clean.slice(0, -1));
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: clean, ContinuationToken: token }));
        const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
        if (keys.length) await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
