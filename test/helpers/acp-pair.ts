import { PassThrough, Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

/**
 * An agent-side connection and `client` joined in process by a pair of in-memory byte streams (the same framing as
 * stdio), for driving agent code that calls client methods. `bytesFromClient` counts what the client has written.
 */
export function connectToClient(client: acp.ClientApp): {
  agent: acp.AgentContext;
  bytesFromClient: () => number;
  close: () => void;
} {
  const toClient = new PassThrough();
  const toAgent = new PassThrough();
  let bytes = 0;
  toAgent.on("data", (chunk: Buffer) => (bytes += chunk.length));
  const clientSide = client.connect(
    acp.ndJsonStream(
      Writable.toWeb(toAgent) as WritableStream<Uint8Array>,
      Readable.toWeb(toClient) as ReadableStream<Uint8Array>,
    ),
  );
  const agentSide = acp
    .agent({ name: "test-agent" })
    .connect(
      acp.ndJsonStream(
        Writable.toWeb(toClient) as WritableStream<Uint8Array>,
        Readable.toWeb(toAgent) as ReadableStream<Uint8Array>,
      ),
    );
  return {
    agent: agentSide.client,
    bytesFromClient: () => bytes,
    close: () => {
      agentSide.close();
      clientSide.close();
    },
  };
}
