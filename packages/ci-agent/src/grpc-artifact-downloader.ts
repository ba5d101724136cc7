// Downloads an artifact a job needs (gocdnext's needs_artifacts) over DownloadArtifact into a file. The
// server streams it only to the agent holding the job run, and only from a run of the job's project; the
// executor checks size and SHA-256 afterwards. A transient failure (server away) is retried from the start.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { AgentConnection } from './connection.js';
import type { ArtifactDownloader } from './executor/needed-artifacts.js';
import type { NeededArtifactAssignment } from './job-spec.js';

export class GrpcArtifactDownloader implements ArtifactDownloader {
  constructor(
    private readonly connection: AgentConnection,
    private readonly jobRunId: string,
    private readonly retryForMs = 120_000,
  ) {}

  async download(artifact: NeededArtifactAssignment, destFile: string): Promise<void> {
    const request = { jobRunId: this.jobRunId, artifactId: artifact.artifactId };
    await this.connection.call(
      async (options) => {
        const client = this.connection.client;
        async function* data() {
          for await (const message of client.downloadArtifact(request, options)) yield message.data;
        }
        try {
          await pipeline(data(), createWriteStream(destFile));
        } catch (err) {
          await rm(destFile, { force: true });
          throw err;
        }
      },
      this.retryForMs,
      0,
    );
  }
}
