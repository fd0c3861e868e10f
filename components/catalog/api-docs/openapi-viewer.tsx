"use client";
// Renders a valid OpenAPI definition with swagger-ui (swagger-ui-dist: a self-contained bundle with its own React,
// mounted into a node of ours, so it works beside React 19; its stylesheet is a static file, which the nonce CSP
// allows). Read only: no "Try it out", no call to the public validator.
import "swagger-ui-dist/swagger-ui.css";
import { useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui";

export function OpenApiViewer({ document }: { document: Record<string, unknown> }) {
  const node = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    const target = node.current;
    let cancelled = false;
    import("swagger-ui-dist/swagger-ui-es-bundle.js")
      .then(({ default: SwaggerUI }) => {
        if (cancelled || !target) return;
        SwaggerUI({ domNode: target, spec: document, supportedSubmitMethods: [], validatorUrl: null, deepLinking: false, tryItOutEnabled: false });
        target.dataset.rendered = "true";
      })
      .catch((e: Error) => setFailure(e.message));
    return () => {
      cancelled = true;
      target?.replaceChildren();
    };
  }, [document]);
  return (
    <>
      {failure ? <Alert tone="error">The renderer did not load ({failure}); the definition is valid, reload to try again.</Alert> : null}
      <div ref={node} data-testid="openapi-viewer" />
    </>
  );
}
