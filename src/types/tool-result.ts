// What a tool call produced, as every layer sees it: the seed's FileDiff and the typed tool errors.
// Declared below tools/ so that events, the loop and the report share them without loading tools.

/** What the CLI shows for a file change; the same shape as the seed's FileDiff. */
export interface FileDiff {
  fileName: string;
  /** Unified diff (via the `diff` package). */
  fileDiff: string;
  originalContent: string | null;
  newContent: string;
}

export type ToolResultDisplay = string | FileDiff;

/** Typed tool failures: data for the model, never exceptions (gemini-cli's ToolErrorType, MCP isError). */
export type ToolErrorType =
  | 'invalid_params'
  | 'unknown_tool'
  | 'policy_denied'
  | 'path_outside_workspace'
  | 'file_not_found'
  | 'not_a_file'
  | 'not_a_directory'
  | 'edit_no_match'
  | 'edit_count_mismatch'
  | 'edit_no_change'
  | 'execution_failed'
  | 'timeout'
  | 'aborted'
  | 'io_error'
  /** The file is read-only for its owner, has other hard links, or holds credentials: the file tools leave it alone. */
  | 'permission_denied'
  /** The run cannot go on (disk full, workspace gone): the loop ends with exit 54. */
  | 'fatal';

export interface ToolError {
  type: ToolErrorType;
  message: string;
}
