// Shared UI primitives, one per file; their styles are in app/globals.css (classes prefixed ui-).
export { Button, type ButtonProps } from "./button";
export { Link } from "./link";
export { ButtonLink, type ButtonLinkProps } from "./button-link";
export type { ButtonVariant, ButtonSize } from "./button-classes";
export { Input } from "./input";
export { Select } from "./select";
export { Textarea } from "./textarea";
export { Field, type FieldProps } from "./field";
export { FieldError } from "./field-error";
export { Checkbox } from "./checkbox";
export { Badge, type BadgeTone } from "./badge";
export { Card } from "./card";
export { Alert, type AlertTone } from "./alert";
export { Dialog, type DialogProps } from "./dialog";
export { FormDialog, type FormDialogProps } from "./form-dialog";
export { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, type TableProps } from "./table";
export { ShownOnceSecret } from "./shown-once-secret";
