// swagger-ui-dist ships no types: the one entry the portal loads, and the options it passes.
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  interface SwaggerUIOptions {
    domNode: HTMLElement;
    spec: Record<string, unknown>;
    supportedSubmitMethods?: string[];
    validatorUrl?: string | null;
    deepLinking?: boolean;
    tryItOutEnabled?: boolean;
  }
  const SwaggerUI: (options: SwaggerUIOptions) => unknown;
  export default SwaggerUI;
}
