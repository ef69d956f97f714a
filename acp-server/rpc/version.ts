// A named import lets esbuild keep only this one field of the manifest in the bundle.
import { version } from "../../package.json";

export const HERMES_ACP_VERSION: string = version;
/**
 * Our own names: npm's `hermes-agent` is an unrelated package, `hermes-acp` and `hermes` are the Python Hermes'
 * console scripts (a user with both would get whichever comes first on PATH), and the registry id `hermes-agent` is
 * the Python Hermes' claim. The package, the bin and the registry id say "editor".
 */
export const BIN_NAME = "hermes-editor";
export const AGENT_NAME = "hermes-editor-agent";
export const AGENT_TITLE = "Hermes Agent for editors";
