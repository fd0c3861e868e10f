// The input of one config value, by its type: true/false is a choice, text and numbers are typed.
import type { UseFormRegisterReturn } from "react-hook-form";
import { Input, Select } from "@/components/ui";
import type { ValueType } from "./config-edit";
import styles from "../gitops.module.css";

export function ValueInput({ type, label, invalid, field }: { type: ValueType; label: string; invalid?: boolean; field: UseFormRegisterReturn }) {
  const className = invalid ? styles.invalid : undefined;
  if (type === "boolean") {
    return (
      <Select aria-label={label} aria-invalid={invalid || undefined} className={className} {...field}>
        <option value="" disabled>
          choose
        </option>
        <option value="true">true</option>
        <option value="false">false</option>
      </Select>
    );
  }
  return <Input aria-label={label} aria-invalid={invalid || undefined} inputMode={type === "number" ? "decimal" : undefined} className={className} {...field} />;
}
