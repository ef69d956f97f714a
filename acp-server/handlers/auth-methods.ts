import type { AuthMethod, ClientCapabilities } from "@agentclientprotocol/sdk";
import { BIN_NAME } from "../rpc/version.js";

// Plain data, on the initialize path: nothing of the engine is imported here (authentication.ts checks the config).
const SETUP_METHOD_ID = "hermes-setup";
export const CONFIG_METHOD_ID = "hermes-config";

/**
 * The ways to sign in that `initialize` offers. The ACP Registry requires one of type "terminal" or "agent":
 * - terminal: the editor runs our bin again with `--setup` in a terminal (provider, model, key into HERMES_HOME),
 *   offered only to clients that announced `auth.terminal`, as the protocol requires;
 * - agent: `authenticate` looks at HERMES_HOME again (a key set meanwhile in .env or the environment counts).
 */
export function authMethods(capabilities: ClientCapabilities | undefined): AuthMethod[] {
  const agent: AuthMethod = {
    id: CONFIG_METHOD_ID,
    name: "Use the Hermes configuration",
    description: `The provider, model and key in HERMES_HOME (~/.hermes: config.yaml and .env), shared with the Python Hermes. Run "${BIN_NAME} --setup" in a terminal to set them up.`,
  };
  if (!capabilities?.auth?.terminal) return [agent];
  return [
    {
      type: "terminal",
      id: SETUP_METHOD_ID,
      name: "Set up Hermes in a terminal",
      description: "Choose a provider and a model and store the API key, then test them with one call.",
      args: ["--setup"],
    },
    agent,
  ];
}
