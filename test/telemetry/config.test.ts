// Which OTEL_* settings turn export on and what they resolve to (OTLP exporter spec): a
// signal-specific endpoint is used as given, the general one gets /v1/<signal> appended, the
// environment wins over a recipe's telemetry block, OTEL_SDK_DISABLED turns everything off.
import { describe, expect, it } from 'vitest';
import { telemetryFromEnv, type TelemetryDefaults } from '../../src/telemetry/config.js';

const recipe: TelemetryDefaults = { endpoint: 'http://recipe:4318', protocol: 'http/json', headers: { a: 'recipe', b: 'recipe' }, serviceName: 'from-recipe', resourceAttributes: { team: 'r' } };

describe('telemetryFromEnv', () => {
  it('is off without an endpoint, whatever else is set', () => {
    expect(telemetryFromEnv({})).toBeNull();
    expect(telemetryFromEnv({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', TRACEPARENT: '00-1-2-01' })).toBeNull();
  });

  it('appends the signal path to the general endpoint (one slash), uses a specific one as given', () => {
    const c = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example/prefix/', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://m.example/custom' })!;
    expect(c.tracesUrl).toBe('https://otel.example/prefix/v1/traces');
    expect(c.metricsUrl).toBe('https://m.example/custom');
    expect(c.tracesProtocol).toBe('http/protobuf');
    expect(c.serviceName).toBe('unattended');
    const tracesOnly = telemetryFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t/v1/traces' })!;
    expect(tracesOnly.metricsUrl).toBeNull();
  });

  it('OTEL_SDK_DISABLED=true wins over every endpoint, the recipe too; *_EXPORTER=none drops one signal', () => {
    expect(telemetryFromEnv({ OTEL_SDK_DISABLED: 'TRUE', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, recipe)).toBeNull();
    expect(telemetryFromEnv({ OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).not.toBeNull();
    const c = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_METRICS_EXPORTER: 'none' })!;
    expect([c.tracesUrl, c.metricsUrl]).toEqual(['http://c:4318/v1/traces', null]);
  });

  it('parses headers and resource attributes as percent-encoded key=value lists, and says what it skipped', () => {
    const c = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%3Db%2Cc, x = y ,garbage,Authorization: Bearer s3cr3tv4lue99', OTEL_RESOURCE_ATTRIBUTES: 'k8s.pod.name=p%201' })!;
    expect(c.headers).toEqual({ 'api-key': 'a=b,c', x: 'y' });
    expect(c.resourceAttributes).toEqual({ 'k8s.pod.name': 'p 1' });
    // What was skipped is said, never shown: a header written with a colon carries its credential.
    expect(c.warnings).toEqual([
      expect.stringMatching(/^telemetry: OTEL_EXPORTER_OTLP_HEADERS has an entry without key=value, 7 characters long; it is ignored$/),
      expect.stringMatching(/without key=value, 35 characters long \(it starts 'Authorization:'; write it as key=value\)/),
    ]);
    expect(c.warnings.join('\n')).not.toContain('s3cr3t');
  });

  it('an unsupported protocol (grpc) falls back to http/protobuf with a warning; the signal-specific protocol wins', () => {
    const c = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/json' })!;
    expect(c.tracesProtocol).toBe('http/protobuf');
    expect(c.metricsProtocol).toBe('http/json');
    // The variable that was set is named, once, though it serves both signals.
    expect(c.warnings).toEqual([expect.stringContaining('OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported')]);
    const both = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })!;
    expect(both.warnings).toEqual(['telemetry: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported (use http/protobuf or http/json); exporting with http/protobuf']);
    const traces = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })!;
    expect(traces.warnings).toEqual([expect.stringContaining('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc is not supported')]);
  });

  it('OTEL_EXPORTER_OTLP_TIMEOUT is whole milliseconds; 3 s when unset, and when it is not a number it says so and keeps 3 s', () => {
    const timeout = (value?: string) => telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_TIMEOUT: value })!;
    expect(timeout().timeoutMs).toBe(3000);
    expect(timeout(' 750 ').timeoutMs).toBe(750);
    expect(timeout('').warnings).toEqual([]);
    for (const bad of ['10s', '0', '-5', '1.5', '999999999']) {
      const c = timeout(bad);
      expect(c.timeoutMs, bad).toBe(3000);
      expect(c.warnings, bad).toEqual([`telemetry: OTEL_EXPORTER_OTLP_TIMEOUT=${bad} is not a number of milliseconds from 1 to 600000; using 3000`]);
    }
  });

  it("a recipe's block turns export on; the environment wins setting by setting", () => {
    const fromRecipe = telemetryFromEnv({}, recipe)!;
    expect(fromRecipe).toMatchObject({ tracesUrl: 'http://recipe:4318/v1/traces', tracesProtocol: 'http/json', serviceName: 'from-recipe', headers: { a: 'recipe', b: 'recipe' } });
    const both = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_HEADERS: 'b=env', OTEL_SERVICE_NAME: 'env' }, recipe)!;
    expect(both).toMatchObject({ tracesUrl: 'http://env:4318/v1/traces', tracesProtocol: 'http/protobuf', serviceName: 'env', headers: { a: 'recipe', b: 'env' }, resourceAttributes: { team: 'r' } });
  });

  it('service.name: OTEL_SERVICE_NAME, else the one in OTEL_RESOURCE_ATTRIBUTES, else the recipe\'s, else unattended', () => {
    const name = (env: Record<string, string>, defaults: TelemetryDefaults | null = null) => telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', ...env }, defaults)!.serviceName;
    expect(name({ OTEL_RESOURCE_ATTRIBUTES: 'service.name=fleet%20agents,team=infra' })).toBe('fleet agents');
    expect(name({ OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes', OTEL_SERVICE_NAME: 'from-name' })).toBe('from-name');
    expect(name({ OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-env' }, recipe)).toBe('from-env');
    expect(name({}, { ...recipe, serviceName: null, resourceAttributes: { 'service.name': 'recipe-attribute' } })).toBe('recipe-attribute');
    expect(name({})).toBe('unattended');
  });

  it('signal-specific headers and timeouts win over the general ones, headers key by key (the recipe\'s under both)', () => {
    const c = telemetryFromEnv(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-team=general,x-general=g',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=traces%20set,b=traces',
        OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'x-dataset=metrics',
        OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
        OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '7000',
      },
      recipe,
    )!;
    expect(c.tracesHeaders).toEqual({ a: 'recipe', b: 'traces', 'x-team': 'traces set', 'x-general': 'g' });
    expect(c.metricsHeaders).toEqual({ a: 'recipe', b: 'recipe', 'x-team': 'general', 'x-general': 'g', 'x-dataset': 'metrics' });
    expect([c.tracesTimeoutMs, c.metricsTimeoutMs]).toEqual([7000, 2000]);
    // The end of a run waits as long as the slower signal may take.
    expect(c.timeoutMs).toBe(7000);
    const bad = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_METRICS_TIMEOUT: '5s' })!;
    expect(bad.metricsTimeoutMs).toBe(3000);
    expect(bad.warnings).toEqual(['telemetry: OTEL_EXPORTER_OTLP_METRICS_TIMEOUT=5s is not a number of milliseconds from 1 to 600000; using 3000']);
  });

  it('an endpoint that is no http(s) URL is said, with the fix, and its signals are not exported; a good one still is', () => {
    const c = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' })!;
    expect([c.tracesUrl, c.metricsUrl]).toEqual([null, null]);
    expect(c.warnings).toEqual(['telemetry: OTEL_EXPORTER_OTLP_ENDPOINT=localhost:4318 is not an http:// or https:// URL; traces and metrics are not exported (write a URL with its scheme, like http://localhost:4318)']);
    const mixed = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://user:s3cr3t@c:4317' })!;
    expect([mixed.tracesUrl, mixed.metricsUrl]).toEqual([null, 'http://c:4318/v1/metrics']);
    expect(mixed.warnings).toEqual(['telemetry: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=grpc://c:4317 is not an http:// or https:// URL; traces are not exported (write an http:// or https:// URL)']);
    // The general endpoint serves only the signal without its own.
    const general = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://m.example/v1/metrics' })!;
    expect([general.tracesUrl, general.metricsUrl]).toEqual([null, 'https://m.example/v1/metrics']);
    expect(general.warnings).toEqual([expect.stringContaining('OTEL_EXPORTER_OTLP_ENDPOINT=not a url is not an http:// or https:// URL; traces are not exported')]);
    expect(telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t/v1/traces', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://m/v1/metrics' })!.warnings).toEqual([]);
  });

  it('an endpoint written with http:// that is still no URL (a port past 65535, no host, a port that is a word) is said as such, not as a wrong scheme', () => {
    for (const endpoint of ['http://127.0.0.1:99999', 'http://:4318', 'https://collector:port']) {
      const c = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })!;
      expect([c.tracesUrl, c.metricsUrl]).toEqual([null, null]);
      expect(c.warnings).toEqual([`telemetry: OTEL_EXPORTER_OTLP_ENDPOINT=${endpoint} is not a valid URL (it needs a host name, and a port, if any, from 1 to 65535, like http://localhost:4318); traces and metrics are not exported`]);
    }
    const secret = telemetryFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://user:s3cr3t@collector:99999/v1/traces' })!;
    expect(secret.warnings).toEqual([expect.stringMatching(/^telemetry: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=https:\/\/collector:99999\/v1\/traces is not a valid URL/)]);
  });

  it('OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER: none drops the signal, otlp keeps it, another exporter is said and OTLP kept', () => {
    const c = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_EXPORTER: 'console', OTEL_METRICS_EXPORTER: 'prometheus' })!;
    expect([c.tracesUrl, c.metricsUrl]).toEqual(['http://c/v1/traces', 'http://c/v1/metrics']);
    expect(c.warnings).toEqual([
      'telemetry: OTEL_TRACES_EXPORTER=console is not supported (only otlp or none); exporting over OTLP to the endpoint that is set',
      'telemetry: OTEL_METRICS_EXPORTER=prometheus is not supported (only otlp or none); exporting over OTLP to the endpoint that is set',
    ]);
    const listed = telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_EXPORTER: 'otlp,console', OTEL_METRICS_EXPORTER: ' NONE ' })!;
    expect([listed.tracesUrl, listed.metricsUrl, listed.warnings]).toEqual(['http://c/v1/traces', null, []]);
  });

  it('a header entry Node would refuse, or a bad percent escape, is said (never shown) and left out; the rest still go', () => {
    const c = telemetryFromEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-ok=1,x-team=%ZZ,Authorization: Bearer s3cr3t=tail,x-nl=a%0Ab',
      OTEL_RESOURCE_ATTRIBUTES: 'team=%E0%A4%A,env=ci',
    })!;
    expect(c.headers).toEqual({ 'x-ok': '1' });
    expect(c.resourceAttributes).toEqual({ env: 'ci' });
    expect(c.warnings).toEqual([
      'telemetry: OTEL_RESOURCE_ATTRIBUTES: the value of team is not valid percent-encoding (write a % as %25); it is ignored',
      'telemetry: OTEL_EXPORTER_OTLP_HEADERS: the value of x-team is not valid percent-encoding (write a % as %25); it is ignored',
      "telemetry: OTEL_EXPORTER_OTLP_HEADERS has an entry whose key is not a header name, 33 characters long (it starts 'Authorization:'; write it as key=value); it is ignored",
      'telemetry: OTEL_EXPORTER_OTLP_HEADERS: the value of x-nl has a character a header cannot carry (a line break, a control character or one beyond Latin-1); it is ignored',
    ]);
    expect(c.warnings.join('\n')).not.toContain('s3cr3t');
  });

  it("the recipe's telemetry.headers: one Node would refuse is said and left out, the others kept", () => {
    const c = telemetryFromEnv({}, { ...recipe, headers: { 'x-ok': 'yes', 'bad key': 'v', 'x-nl': 'a\nb' } })!;
    expect(c.headers).toEqual({ 'x-ok': 'yes' });
    expect(c.warnings).toEqual([
      'telemetry: telemetry.headers has a key that is not a header name (7 characters long); it is ignored',
      'telemetry: telemetry.headers: the value of x-nl has a character a header cannot carry (a line break, a control character or one beyond Latin-1); it is ignored',
    ]);
  });
});
