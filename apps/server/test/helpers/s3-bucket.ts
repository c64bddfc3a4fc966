import path from 'node:path';
import S3rver from 's3rver';
import type { FileStore } from '../../src/storage/file-store.ts';
import { createS3FileStore } from '../../src/storage/s3-file-store.ts';

/** The settings of a local s3rver bucket, in the shape createS3FileStore takes. */
export interface S3BucketSettings {
  bucket: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface TestBucket {
  settings: S3BucketSettings;
  /** The S3_* environment of a server using the bucket, optionally through another endpoint (a proxy). */
  env(endpoint?: string): Record<string, string>;
  /** A file store that talks to the bucket directly. */
  store(): FileStore;
  close(): Promise<void>;
}

/** Starts s3rver (a local S3 server) on a free port with one empty bucket, its files under `directory`. */
export async function startS3Bucket(directory: string): Promise<TestBucket> {
  const bucket = 'hookreel';
  const s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: path.join(directory, 's3'),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await s3.run()) as { port: number };
  const settings: S3BucketSettings = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  };
  return {
    settings,
    env: (endpoint = settings.endpoint) => ({
      S3_BUCKET: settings.bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
    }),
    store: () => createS3FileStore(settings),
    close: () => s3.close(),
  };
}
