// A named import lets esbuild keep only this one field of the manifest in the bundle.
import { version } from "../../package.json";

export const HERMES_ACP_VERSION: string = version;
export const AGENT_NAME = "hermes-agent";
export const AGENT_TITLE = "Hermes Agent";
