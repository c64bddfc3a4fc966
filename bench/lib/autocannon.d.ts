/** The part of autocannon's API the benchmarks use (the package ships no types; @types/autocannon is not installed). */
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before each send; returns the request to send (falsy resets the client's request loop). */
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request | undefined;
  }

  /** One connection; setupClient gets it before it connects. */
  export interface Client {
    setRequests(requests: Request[]): void;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Seconds before a request counts as a timeout (and an error). */
    timeout?: number;
    /** Requests per second per connection (an integer; unset: as fast as the server answers). */
    connectionRate?: number;
    requests?: Request[];
    setupClient?: (client: Client) => void;
  }

  export interface Histogram {
    average: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }

  export interface Result {
    duration: number;
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export default function autocannon(options: Options): Promise<Result>;
}
