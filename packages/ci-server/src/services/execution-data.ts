// The execution data of jobs in one object: logs (store + live hub), artifacts with signed downloads, cache
// blobs, test reports, service runs and the control plane's metrics. server.ts creates it once; the agent
// endpoint (agents/**) calls it for PushLogs, ReportService, ReportTests, UploadArtifact and the cache calls,
// the dispatcher for metrics, and the HTTP routes read from it.
//
//   PushLogs       → data.logs.appendLogBatch(jobRunId, lines, { mask })  → { ackedSeq }  (UnknownJobRunError)
//   ReportJob fin. → await data.logs.waitForTail(jobRunId, lastSeq, 5_000), then finish the job;
//                    data.logs.forget(jobRunId) once it is over
//   ReportService  → data.services.recordServiceEvent({ jobRunId, serviceName, state, message, atMs })
//   ReportTests    → data.reports.storeTestReport({ jobRunId, cases, unreadableFiles })
//   UploadArtifact → data.artifacts.storeArtifact(header, dataChunks)      (BlobRejectedError.kind)
//   DownloadCache  → data.caches.lookup(projectSlug, key) → { found, open() }
//   UploadCache    → data.caches.save(projectSlug, key, dataChunks)
//   metrics        → data.metrics.jobScheduled / jobStarted / jobFinished / setQueueDepth / grpcCall
import type { Database, Registry } from '@app/kit';
import { CacheBlobStore } from '../artifacts/caches.js';
import { DownloadSigner } from '../artifacts/signing.js';
import { ArtifactStore } from '../artifacts/store.js';
import type { BlobStorage } from '../blobs/blob-storage.js';
import { FilesystemStorage } from '../blobs/filesystem-storage.js';
import { ArchivedLogs } from '../logs/archived-logs.js';
import { LogHub } from '../logs/hub.js';
import { LogStore } from '../logs/store.js';
import { type CiMetrics, createCiMetrics } from '../metrics.js';
import { TestReportStore } from '../reports/store.js';
import type { StoreSchema } from '../store/database.js';
import { ServiceRunStore } from './service-runs.js';

export interface ExecutionData {
  logs: LogStore;
  hub: LogHub;
  /** Archived job logs (one compressed blob per job run on the storage backend). */
  archives: ArchivedLogs;
  artifacts: ArtifactStore;
  signer: DownloadSigner;
  caches: CacheBlobStore;
  /** The backend holding artifacts, caches and archived logs (storage/). */
  storage: BlobStorage;
  reports: TestReportStore;
  services: ServiceRunStore;
  metrics: CiMetrics;
}

export interface ExecutionDataOptions {
  database: Database<StoreSchema>;
  dataDir: string;
  /** Backend of artifacts, caches and archived logs; default: the data folder. */
  storage?: BlobStorage;
  /** 64 hex characters (CI_SECRET_KEY): signs artifact download links. */
  secretKey: string;
  /** The registry /metrics serves. */
  registry: Registry;
  logLimits?: { maxLinesPerJob?: number; maxCharsPerJob?: number };
}

export function createExecutionData(options: ExecutionDataOptions): ExecutionData {
  const db = options.database.db;
  const hub = new LogHub();
  const storage = options.storage ?? new FilesystemStorage(options.dataDir);
  const archives = new ArchivedLogs(db, () => storage);
  return {
    logs: new LogStore({
      db,
      postgres: options.database.dialect === 'postgres',
      hub,
      archives,
      ...options.logLimits,
    }),
    hub,
    archives,
    artifacts: new ArtifactStore({ db, dataDir: options.dataDir, storage }),
    signer: new DownloadSigner(options.secretKey),
    caches: new CacheBlobStore({ db, dataDir: options.dataDir, storage }),
    storage,
    reports: new TestReportStore(db),
    services: new ServiceRunStore(db),
    metrics: createCiMetrics(options.registry),
  };
}
