// The few autocannon types the benchmark uses (the package ships none).
declare module "autocannon" {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    /** Requests in turn; setupRequest rewrites each one before it is sent. */
    requests?: Array<{ path?: string; setupRequest?: (request: { path?: string }) => { path?: string } }>;
  }
  interface Result {
    latency: { p50: number; p90: number; p99: number; average: number };
    requests: { average: number; total: number };
    non2xx: number;
    errors: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
