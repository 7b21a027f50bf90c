// The command line's command names: the grammar's (parser.ts), and the entry's (main.ts), which
// must know whether argv starts a run before it loads the grammar.
export const COMMANDS: ReadonlySet<string> = new Set(['run', 'validate', 'tools', 'policy', 'convert', 'report', 'batch', 'completion']);

/** The words after `policy` and `batch` that name a subcommand (`policy check`, `batch merge`). */
export const SUBCOMMANDS: ReadonlySet<string> = new Set(['check', 'status', 'matrix', 'merge']);
