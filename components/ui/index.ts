// Shared UI primitives; their styles are in app/globals.css (classes prefixed ui-).
export { Button, ButtonLink, type ButtonProps, type ButtonVariant } from "./button";
export { Input, Select, Textarea, Field, Checkbox } from "./input";
export { Badge, type BadgeTone } from "./badge";
export { Card, Alert } from "./card";
export { Dialog } from "./dialog";
