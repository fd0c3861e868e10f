/**
 * The base of the portal's semantic errors: a stable code, a sentence for people and, for bad input,
 * the issues. It sits below lib/catalog and lib/portal so both can throw without the catalog
 * importing the portal; neither carries an HTTP status (lib/portal/http maps codes to statuses).
 */

/** One problem of an input: where (keys from the root of the part that was wrong) and what. */
export interface ErrorIssue {
  path: string[];
  message: string;
}

/** The documented extra fields an error body may carry besides message, detail and issues. */
export interface ErrorFields {
  /** precondition-failed: the current ETag (also sent as the ETag header). */
  etag?: string;
  /** forbidden: the role the call needs ("support or liveops" when any of several will do). */
  requiredRole?: string;
}

const BRANDS = Symbol.for("offers-portal.error-brands");

/**
 * An error class whose `instanceof` holds across bundles. Next.js compiles a module once per bundle
 * (each route, the instrumentation hook), and the portal's services are built once per process by
 * whichever bundle asks first: an error they throw is an instance of that bundle's class, not of the
 * copy a route's error mapper imported. So a class that declares `static readonly brand` is matched
 * by that name, which every instance carries for its class and each branded ancestor.
 */
export class BrandedError extends Error {
  static [Symbol.hasInstance](this: { brand?: string }, value: unknown): boolean {
    if (!Object.hasOwn(this, "brand")) return Function.prototype[Symbol.hasInstance].call(this, value);
    if (typeof value !== "object" || value === null) return false;
    const brands = (value as { [BRANDS]?: unknown })[BRANDS];
    return Array.isArray(brands) && brands.includes(this.brand);
  }

  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    const brands: string[] = [];
    for (let c: unknown = new.target; typeof c === "function" && c !== BrandedError; c = Object.getPrototypeOf(c)) {
      if (Object.hasOwn(c, "brand")) brands.push((c as unknown as { brand: string }).brand);
    }
    Object.defineProperty(this, BRANDS, { value: brands });
  }
}

export abstract class CodedError<C extends string> extends BrandedError {
  readonly issues?: ErrorIssue[];
  readonly fields: ErrorFields;

  constructor(
    readonly code: C,
    readonly detail: string,
    options: { issues?: ErrorIssue[]; fields?: ErrorFields; cause?: unknown } = {},
  ) {
    super(`${code}: ${detail}`, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.issues) this.issues = options.issues;
    this.fields = options.fields ?? {};
  }
}
