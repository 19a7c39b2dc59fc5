import { MAX_GRAPHQL_BODY_BYTES } from '../limits.js';

/** The fixed bounds of the MCP surface (settable ones are MCP_* in config.ts). */
export const MCP_LIMITS = {
  /** Rows one tool result carries at most; the total and the paging arguments tell the rest. */
  maxRows: 500,
  /** Rows of the text table a tool result shows (the structured content has all returned rows). */
  tableRows: 12,
  /** Largest JSON-RPC request body, bytes: GraphQL's (past it 413). */
  maxBodyBytes: MAX_GRAPHQL_BODY_BYTES,
  /** Characters of an argument value an error message quotes. */
  quotedChars: 80,
} as const;

/** The Streamable HTTP endpoint. */
export const MCP_PATH = '/mcp';
