// The one JSON Schema of a recipe file: ajv checks recipes against it, and
// schema/recipe.schema.json is this object written out for editors (scripts/write-schema.mjs).
// Checks a schema cannot express (tool names, placeholders, files) live in semantic.ts.
// `patternErrorMessage` is the VS Code / yaml-language-server extension; our own messages use it too.

import { DIALECT_NAMES } from '../types/provider-options.js';

/**
 * How ajv reads RECIPE_SCHEMA, at run time (tests) and ahead of time (the build): strict: false
 * tolerates the editor-only keyword patternErrorMessage; verbose gives us parentSchema (for it and
 * for key suggestions) and the offending data.
 */
export const RECIPE_AJV_OPTIONS = { allErrors: true, strict: false, allowUnionTypes: true, verbose: true } as const;

const NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';

const stringList = { type: 'array', items: { type: 'string', minLength: 1 } } as const;
const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
const positiveInteger = { type: 'integer', minimum: 1 } as const;

export const RECIPE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'unattended recipe',
  description:
    'What an unattended agent run does: the prompt, the tools offered to the model, and the confirmation policy that answers in place of a human.',
  type: 'object',
  additionalProperties: false,
  required: ['version', 'confirmation'],
  properties: {
    version: { description: 'Recipe format version.', const: 1 },
    name: { description: 'Short name for reports; defaults to the file name.', type: 'string', minLength: 1 },
    description: { type: 'string' },
    prompt: {
      description:
        'The task. `{{ name }}` is replaced by a parameter (write `\\{{` for a literal `{{`). Omit to take it from --prompt or stdin.',
      type: 'string',
      minLength: 1,
    },
    instructions: { description: 'System instructions; `{{ name }}` placeholders as in prompt.', type: 'string' },
    parameters: {
      description: 'Values given with --param name=value.',
      type: 'object',
      propertyNames: { pattern: NAME_PATTERN, patternErrorMessage: 'parameter names are letters, digits and _' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          type: { enum: ['string', 'number', 'boolean'], default: 'string' },
          required: { description: 'Defaults to true unless a default is given.', type: 'boolean' },
          default: { type: ['string', 'number', 'boolean'] },
          description: { type: 'string' },
        },
      },
    },
    provider: {
      description: "Default: the provider the model's name belongs to (claude-… anthropic; gpt-…, o3, codex-…, mistral-… openai), else gemini.",
      enum: ['gemini', 'openai', 'anthropic', 'scripted'],
    },
    provider_options: {
      description: 'How the provider talks to its endpoint.',
      type: 'object',
      additionalProperties: false,
      properties: {
        stream: { description: 'false: use the non-streaming endpoint (some gateways and llama.cpp builds need it).', type: 'boolean', default: true },
        dialect: {
          description: 'OpenAI-compatible server family; default: from the base URL host, else generic.',
          enum: [...DIALECT_NAMES],
        },
        max_output_tokens: { description: 'Cap on one answer, sent as the provider names it (anthropic requires one: default 8192).', ...positiveInteger },
        thinking_budget: { description: 'anthropic: extended thinking with this many tokens (at least 1024).', type: 'integer', minimum: 1024 },
        cache: { description: 'anthropic: prompt-caching breakpoints on the system prompt, tools and history.', type: 'boolean', default: true },
        images: {
          description: "openai: false for a model that takes no images (DeepSeek, text-only local models): a tool's images are named in its result, not sent. Default: false for the deepseek dialect, else true.",
          type: 'boolean',
        },
      },
    },
    pricing: {
      description: 'Dollars per million tokens, for a model the built-in price table does not know.',
      type: 'object',
      additionalProperties: false,
      required: ['input_per_mtok', 'output_per_mtok'],
      properties: {
        input_per_mtok: { type: 'number', minimum: 0 },
        output_per_mtok: { type: 'number', minimum: 0 },
        cached_input_per_mtok: { type: 'number', minimum: 0 },
        cache_write_per_mtok: { description: 'Input written to the prompt cache (anthropic); default 1.25 x input for anthropic, else input.', type: 'number', minimum: 0 },
      },
    },
    model: {
      description: 'Model name; gemini defaults to gemini-2.5-flash, openai needs one (here or --model).',
      type: 'string',
      minLength: 1,
    },
    script: {
      description: 'Recorded model turns (YAML or JSONL) replayed by the scripted provider; relative to this file.',
      type: 'string',
      minLength: 1,
    },
    base_url: { description: 'Provider endpoint override (http or https URL).', type: 'string', minLength: 1 },
    workspace: {
      description: 'Directory the tools work in; relative to this file. Defaults to the current directory.',
      type: 'string',
      minLength: 1,
    },
    workspace_mode: {
      description: '`copy` runs on a fresh copy of the workspace inside the run output.',
      enum: ['in-place', 'copy'],
      default: 'in-place',
    },
    tools: {
      description:
        'Tool names offered to the model, in order. Defaults to ls, read_file, write_file, edit, grep, glob, read_many_files, shell.',
      ...stringList,
      uniqueItems: true,
    },
    confirmation: {
      description: 'Answers every "may I?" a tool raises. Deny rules always win.',
      type: 'object',
      additionalProperties: false,
      required: ['mode'],
      properties: {
        mode: {
          description:
            'auto-approve: approve every call that asks; deny: deny them (read-only tools still run); allowlist: approve only calls an allow rule matches.',
          enum: ['auto-approve', 'deny', 'allowlist'],
        },
        allow: { type: 'array', items: { $ref: '#/definitions/rule' } },
        deny: { type: 'array', items: { $ref: '#/definitions/rule' } },
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        max_turns: { ...positiveInteger, default: 500 },
        max_tool_calls: positiveInteger,
        timeout: { description: 'Wall time for the whole run.', $ref: '#/definitions/duration' },
        max_tokens: positiveInteger,
        max_cost_usd: { description: 'Stop the run (exit 55) once the model calls cost more than this many US dollars.', type: 'number', exclusiveMinimum: 0 },
        tool_timeout: { description: 'Upper bound for any one tool call (default 10m).', $ref: '#/definitions/duration' },
        model_idle_timeout: {
          description: 'A model stream that sends nothing for this long is aborted and retried (default 60s).',
          $ref: '#/definitions/duration',
        },
        model_retries: {
          description: 'Attempts per model call, the first included, on 429, 5xx, network errors and stalls (default 5).',
          ...positiveInteger,
          default: 5,
        },
        max_denials: {
          description: 'Policy denials the run tolerates; one more ends it with exit 57 (default 10; 0: the first denial does).',
          type: 'integer',
          minimum: 0,
          default: 10,
        },
        context_tokens: {
          description:
            "The model's context window in tokens, for a model the price table does not know (a local server) or one served with a smaller window; default: the table's figure, else unknown (then only a provider's refusal for length compacts).",
          ...positiveInteger,
        },
        compact_at: {
          description: 'Share of the context window a request may fill before older turns are compacted (default 0.7).',
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 1,
          default: 0.7,
        },
      },
    },
    fail_on_denial: { description: 'Any policy denial ends the run with exit 57.', type: 'boolean', default: false },
    input: {
      description: '`required`: the run needs non-empty piped input (a diff, an issue); without it, it ends with exit 42 before any model call.',
      enum: ['required', 'optional'],
      default: 'optional',
    },
    checks: {
      description: 'What must hold after the final answer for the run to succeed (exit 56 otherwise).',
      type: 'object',
      additionalProperties: false,
      properties: {
        require_changes: { description: 'The run must change at least one file.', type: 'boolean', default: false },
        commands: {
          description: 'Commands run with bash in the workspace after the final answer, in order; each must exit 0. They are the recipe author\u2019s: the policy does not judge them.',
          ...stringList,
        },
        retries: {
          description: 'Times a failed check (the command and its output tail) goes back to the model as a new message before the run fails (default 0).',
          type: 'integer',
          minimum: 0,
          default: 0,
        },
        timeout: { description: 'Per command (default 10m).', $ref: '#/definitions/duration' },
      },
    },
    env: {
      type: 'object',
      additionalProperties: false,
      properties: {
        pass: {
          description: 'Environment variables tools may see that are withheld by default (GITHUB_TOKEN, ...).',
          type: 'array',
          uniqueItems: true,
          items: { type: 'string', pattern: NAME_PATTERN, patternErrorMessage: 'an environment variable name' },
        },
      },
    },
    mcp_servers: {
      description: 'MCP servers whose tools are offered as `alias__tool`.',
      type: 'object',
      propertyNames: {
        pattern: '^[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*$',
        patternErrorMessage: 'server aliases are letters, digits, - and single _ (`__` separates alias and tool)',
      },
      additionalProperties: { $ref: '#/definitions/mcpServer' },
    },
    tool_discovery: {
      description: 'Tools discovered by a command that prints a JSON array of function declarations.',
      type: 'object',
      additionalProperties: false,
      required: ['command', 'call_command'],
      properties: {
        command: { type: 'string', minLength: 1 },
        call_command: { description: 'Run as `<call_command> <toolName>`, JSON arguments on stdin.', type: 'string', minLength: 1 },
        timeout: { $ref: '#/definitions/duration' },
      },
    },
    output: {
      description: 'Structured final answer: the run succeeds only with an answer that validates.',
      type: 'object',
      additionalProperties: false,
      properties: {
        schema: { description: 'JSON Schema of the final answer.', type: 'object' },
        max_attempts: { ...positiveInteger, default: 3 },
      },
    },
    mode: {
      description: '`plan`: only read-only tools until the model calls exit_plan_mode (added to tools).',
      enum: ['default', 'plan'],
      default: 'default',
    },
    plan_only: { description: 'End the run when the plan is made (needs mode: plan).', type: 'boolean', default: false },
    context: {
      description:
        'Context files the repository provides (AGENTS.md by default), loaded from the workspace root down to the working directory and sent before the prompt as repository-provided context: they never change the policy. `false`: load none.',
      // Object keywords apply to a map only, so `true`/`false` pass them.
      type: ['boolean', 'object'],
      additionalProperties: false,
      properties: {
        files: {
          description: 'File names looked for in each directory, in order (e.g. [AGENTS.md, CLAUDE.md, GEMINI.md, QWEN.md]).',
          type: 'array',
          uniqueItems: true,
          // A glob (`*.md`) would be looked for as that very name and match nothing, in silence.
          items: { type: 'string', minLength: 1, pattern: '^[^/\\\\*?\\[\\]]+$', patternErrorMessage: 'a file name, without a directory or a glob (*, ?, [ ]): each name is looked for as it is, e.g. CLAUDE.md' },
          default: ['AGENTS.md'],
        },
        max_bytes: { description: 'Cap on the context files together; what is over it is cut, and the run says so.', ...positiveInteger, default: 32768 },
      },
    },
    memory: {
      type: 'object',
      additionalProperties: false,
      properties: {
        file: { description: 'Where save_memory appends; relative to this file. Default: the run output.', type: 'string', minLength: 1 },
        load: { description: 'Load the memory file into the instructions (needs file).', type: 'boolean', default: false },
      },
    },
    git: {
      description: 'After a successful run with changes: commit them on a branch, optionally push and open a pull request. `handoff:` is the same section under another name; give one of them.',
      $ref: '#/definitions/handoff',
    },
    handoff: {
      description: 'The same section as `git:` (the name fleet tools use for it); give one of them.',
      $ref: '#/definitions/handoff',
    },
    telemetry: {
      description: 'OpenTelemetry export (OTLP/HTTP). The OTEL_* environment, when set, wins over these settings; OTEL_SDK_DISABLED=true turns it off.',
      type: 'object',
      additionalProperties: false,
      properties: {
        endpoint: { description: 'The collector base URL, like OTEL_EXPORTER_OTLP_ENDPOINT (/v1/traces and /v1/metrics are appended).', type: 'string', pattern: '^https?://', patternErrorMessage: 'an http:// or https:// URL' },
        protocol: { enum: ['http/protobuf', 'http/json'], default: 'http/protobuf' },
        headers: { description: 'Request headers; keep secrets in OTEL_EXPORTER_OTLP_HEADERS instead.', type: 'object', additionalProperties: { type: 'string' } },
        service_name: { type: 'string', minLength: 1, default: 'unattended' },
        resource_attributes: { type: 'object', additionalProperties: { type: 'string' } },
        log_content: { description: 'Also export the prompt, the model text, tool arguments and outputs, redacted like the transcript.', type: 'boolean', default: false },
      },
    },
    sandbox: {
      description:
        'The OS sandbox every process a tool starts runs in (bubblewrap on Linux, Seatbelt on macOS): read-only system, writable workspace and private /tmp, credential directories hidden, no network unless allowed.',
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: {
          description: 'auto: on where it works (the report says which ran or why none did); required: fail (exit 52) where it cannot; off: none.',
          enum: ['auto', 'required', 'off'],
          default: 'auto',
        },
        network: {
          description: 'false (default): no network; true: all of it; a list of hosts (`registry.npmjs.org`, `*.github.com`) reached through a filtering proxy.',
          type: ['boolean', 'array'],
          uniqueItems: true,
          items: {
            type: 'string',
            pattern: '^(\\*\\.)?[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?$|^\\[[0-9A-Fa-f:.]+\\]$',
            patternErrorMessage: 'a host name (`registry.npmjs.org`), `*.` and a domain (`*.github.com`), or an IP address',
          },
        },
        writable: { description: 'More paths tools may write (relative to this file, or `~/...`).', ...stringList, uniqueItems: true },
        hide: { description: 'More paths hidden from tools, besides the default credential list.', ...stringList, uniqueItems: true },
      },
    },
  },
  definitions: {
    handoff: {
      description: 'After a successful run with changes: commit them on a branch, optionally push and open a pull request (recipe `git:` or `handoff:`).',
      type: 'object',
      additionalProperties: false,
      properties: {
        branch: {
          description: 'The branch the commit goes on; `{{ name }}` placeholders as in prompt. Default: unattended/ and the recipe name as a slug (else the file name), the same on every re-run.',
          type: 'string',
          minLength: 1,
        },
        commit_message: { type: 'string', minLength: 1 },
        push: { type: 'boolean', default: false },
        author: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'email'],
          properties: { name: { type: 'string', minLength: 1 }, email: { type: 'string', minLength: 1 } },
        },
        pull_request: {
          description:
            'Open a GitHub pull request from the pushed branch, or update the open one for the same branch (token from GITHUB_TOKEN or GH_TOKEN; GITHUB_API_URL for Enterprise). Implies push. Title and body take parameters and {{ run.summary }}, {{ run.cost_usd }}, {{ run.turns }}, {{ run.tool_calls }}, {{ run.files_changed }}, {{ run.run_id }}, {{ run.recipe }}, {{ run.model }}, {{ run.commit }}.',
          type: 'object',
          additionalProperties: false,
          properties: {
            title: { description: 'Default: the first line of commit_message.', type: 'string', minLength: 1 },
            body: { description: 'Markdown. Default: {{ run.summary }} (the final answer).', type: 'string' },
            draft: { description: 'Open it as a draft (an existing pull request keeps its draft state).', type: 'boolean', default: false },
            labels: { description: 'Added to the pull request (created in the repository when missing).', type: 'array', items: { type: 'string', minLength: 1 } },
            base: { description: "The branch to merge into. Default: the repository's default branch.", type: 'string', minLength: 1 },
          },
        },
      },
    },
    duration: {
      description: 'A duration: 30s, 10m, 1h, 500ms, or a number of seconds.',
      type: ['string', 'number'],
    },
    rule: {
      description:
        'A tool name (`- read_file`) or a one-key map from tool to pattern: `- shell: "git diff *"`, `- edit: "src/**"`, `- web_fetch: "*.python.org"`.',
      type: ['string', 'object'],
      minLength: 1,
      minProperties: 1,
      maxProperties: 1,
      additionalProperties: { type: 'string' },
    },
    mcpServer: {
      description: 'Either command (stdio) or url (Streamable HTTP).',
      type: 'object',
      additionalProperties: false,
      properties: {
        command: { type: 'string', minLength: 1 },
        args: { type: 'array', items: { type: 'string' } },
        env: stringMap,
        cwd: { description: 'Relative to this file.', type: 'string', minLength: 1 },
        url: { type: 'string', minLength: 1 },
        headers: stringMap,
        timeout: { $ref: '#/definitions/duration' },
        include_tools: { ...stringList, uniqueItems: true },
        exclude_tools: { ...stringList, uniqueItems: true },
        trust: { description: 'Trusted servers\u2019 tools need no confirmation.', type: 'boolean', default: false },
        required: { description: 'Fail the run when this server cannot start.', type: 'boolean', default: false },
        sandbox: { description: 'Run this stdio server inside the run\u2019s sandbox.', type: 'boolean', default: false },
      },
    },
  },
} as const;
