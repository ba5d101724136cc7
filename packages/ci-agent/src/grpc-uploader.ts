// Uploads a job's artifacts to the control plane over UploadArtifact: a header with the path, size and
// SHA-256 the executor computed, then the file in 256 KiB chunks. The server verifies both and refuses a
// mismatch. A transient failure (server away or restarted) is retried from the start of the file.
import { createReadStream } from 'node:fs';
import type { AgentConnection } from './connection.js';
import type { ArtifactUploader, CollectedArtifact } from './executor/artifacts.js';

const CHUNK = 256 * 1024;

export class GrpcArtifactUploader implements ArtifactUploader {
  constructor(
    private readonly connection: AgentConnection,
    private readonly jobRunId: string,
    private readonly retryForMs = 120_000,
  ) {}

  async upload(artifact: CollectedArtifact): Promise<void> {
    const jobRunId = this.jobRunId;
    await this.connection.call(
      async (options) => {
        async function* messages() {
          yield {
            kind: {
              case: 'header' as const,
              value: {
                jobRunId,
                path: artifact.path,
                sizeBytes: BigInt(artifact.size_bytes),
                contentSha256: artifact.content_sha256,
              },
            },
          };
          for await (const chunk of createReadStream(artifact.absolutePath, { highWaterMark: CHUNK }))
            yield { kind: { case: 'data' as const, value: chunk as Buffer } };
        }
        return this.connection.client.uploadArtifact(messages(), options);
      },
      this.retryForMs,
      0,
    );
  }
}
