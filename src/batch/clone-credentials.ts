// A private repository's clone URL carries its token (`https://x-access-token:TOKEN@github.com/o/r.git`,
// as a workflow builds it from a GitHub App token). `git clone` keeps the URL as given in the
// clone's .git/config, where the run's model can read it (read_file, `git remote -v`) and so send
// it to the provider and into the transcript. So the clone's origin is set to the URL without its
// credentials, and the run's own git (fetch, the hand-off's push) gets them back through its
// environment: `url.<with credentials>.insteadOf <without>`, as GIT_CONFIG_COUNT/KEY/VALUE, which
// tool processes never inherit (tools/tool-env.ts drops GIT_CONFIG_*).

export interface CloneCredentials {
  /** The URL as given, credentials and all. */
  withCredentials: string;
  /** The same URL without them: what the clone's origin says. */
  plain: string;
}

/** The URL's credentials, or null when it carries none (or is no URL: `git@host:o/r`, a path). */
export function cloneCredentials(location: string): CloneCredentials | null {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return null;
  }
  if (!/^(https?|ftps?):$/.test(url.protocol) || (!url.username && !url.password)) return null;
  url.username = '';
  url.password = '';
  return { withCredentials: location, plain: url.toString() };
}

/** `env` with git told to use the credentials for the plain URL (after any GIT_CONFIG_* pairs it holds). */
export function withCloneCredentials<E extends Record<string, string | undefined>>(env: E, credentials: CloneCredentials | null): E {
  if (!credentials) return env;
  const count = Number(env.GIT_CONFIG_COUNT);
  const n = Number.isInteger(count) && count > 0 ? count : 0;
  return {
    ...env,
    GIT_CONFIG_COUNT: String(n + 1),
    [`GIT_CONFIG_KEY_${n}`]: `url.${credentials.withCredentials}.insteadOf`,
    [`GIT_CONFIG_VALUE_${n}`]: credentials.plain,
  };
}
