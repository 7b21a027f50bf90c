// The command line's command names: the grammar's (parser.ts), and the entry's (main.ts), which
// must know whether argv starts a run before it loads the grammar.
export const COMMANDS: ReadonlySet<string> = new Set(['run', 'validate', 'tools', 'policy', 'convert', 'report', 'batch', 'completion']);
