"use client";
// The operators' bulk editor: one row per key, one column per environment, checked as you type
// (config-form.ts); every environment that changes is saved together (one commit, or one live
// change), or none is.
import { useMemo, useState } from "react";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Card, Input, Select, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { errorMessages } from "@/components/forms/error-messages";
import type { ConfigValues } from "@/lib/portal/gitops/config-values";
import { saveConfigBulk, type ConfigView, type ConfigWriteResult } from "../api";
import { VALUE_TYPES, bulkFrom, bulkUpdates, type Change, type ValueType } from "./config-edit";
import { bulkFormSchema, type BulkForm, type BulkFormRow, type BulkUpdate } from "./config-form";
import { ChangeList } from "./change-list";
import { SaveActions } from "./save-actions";
import { usePreviewedSave } from "./use-previewed-save";
import { EditorActions } from "./editor-actions";
import { TargetPicker } from "./target-picker";
import { ValueInput } from "./value-input";
import styles from "../gitops.module.css";

export interface BulkEditorProps {
  name: string;
  environments: string[];
  persistent: Record<string, ConfigValues>;
  current: Record<string, ConfigValues>;
  onCancel: () => void;
  onSaved: (r: ConfigWriteResult) => void;
}

const rowsOf = (environments: string[], values: Record<string, ConfigValues>): BulkFormRow[] => bulkFrom(environments, values).map(({ key, type, cells }) => ({ key, type, cells }));
const blank = (type: ValueType) => (type === "number" ? "0" : type === "boolean" ? "false" : "");
const numbered = (rows: BulkFormRow[]) => rows.map((r, i) => ({ ...r, id: String(i) }));

export function BulkEditor(props: BulkEditorProps) {
  const [target, setTarget] = useState<ConfigView>("persistent");
  const base = target === "current" ? props.current : props.persistent;
  const schema = useMemo(() => bulkFormSchema(props.environments, base), [props.environments, base]);
  const form = useForm<BulkForm, unknown, BulkUpdate[]>({ resolver: zodResolver(schema), defaultValues: { rows: rowsOf(props.environments, props.persistent) } });
  const rows = useFieldArray({ control: form.control, name: "rows" });
  const { preview, setPreview, save } = usePreviewedSave<BulkForm, BulkUpdate[], Array<BulkUpdate & { changes: Change[] }>, Parameters<typeof saveConfigBulk>[1]>(
    form,
    (body) => saveConfigBulk(props.name, body),
    props.onSaved,
  );

  const values = useWatch({ control: form.control, name: "rows" });
  const issues = errorMessages(form.formState.errors);
  const hasChanges = bulkUpdates(props.environments, base, numbered(values)).updates.length > 0;
  const keyOf = (i: number) => values[i]?.key || `key ${i + 1}`;
  const showPreview = (updates: BulkUpdate[]) => {
    const changes = new Map(bulkUpdates(props.environments, base, numbered(form.getValues("rows"))).updates.map((u) => [u.environment, u.changes]));
    setPreview(updates.map((u) => ({ ...u, changes: changes.get(u.environment) ?? [] })));
  };

  return (
    <Card title="Bulk edit across environments">
      <form className="stack" onSubmit={form.handleSubmit(showPreview)} noValidate>
        <TargetPicker
          target={target}
          onChange={(t) => {
            setTarget(t);
            form.reset({ rows: rowsOf(props.environments, t === "current" ? props.current : props.persistent) });
          }}
        />
        <p className={`muted ${styles.flush}`}>
          One row per key, one column per environment. All changes are saved together {target === "persistent" ? "as one commit" : "at once"}, or none is.
        </p>
        <Table label="Values by environment" className={styles.bulkTable} data-testid="bulk-table">
          <TableHeader>
            <TableRow>
              <TableHead>Key</TableHead>
              <TableHead>Type</TableHead>
              {props.environments.map((env) => (
                <TableHead key={env}>{env}</TableHead>
              ))}
              <TableHead aria-label="Remove" />
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.fields.map((row, i) => (
              <TableRow key={row.id}>
                <TableCell>
                  <Input aria-label={`Bulk key ${i + 1}`} placeholder="KEY" {...form.register(`rows.${i}.key`)} />
                </TableCell>
                <TableCell>
                  <Select aria-label={`Bulk type ${i + 1}`} {...form.register(`rows.${i}.type`)}>
                    {VALUE_TYPES.map((t) => (
                      <option key={t}>{t}</option>
                    ))}
                  </Select>
                </TableCell>
                {props.environments.map((env) => {
                  const cell = values[i]?.cells[env] ?? null;
                  const type = values[i]?.type ?? row.type;
                  const set = (text: string | null) => form.setValue(`rows.${i}.cells.${env}`, text, { shouldDirty: true });
                  return (
                    <TableCell key={env}>
                      {cell === null ? (
                        <Button size="small" variant="ghost" onClick={() => set(blank(type))} aria-label={`Set ${keyOf(i)} in ${env}`}>
                          not set · set
                        </Button>
                      ) : (
                        <div className={styles.cell}>
                          <ValueInput type={type} label={`${keyOf(i)} in ${env}`} field={form.register(`rows.${i}.cells.${env}`)} />
                          <Button size="small" variant="ghost" onClick={() => set(null)} aria-label={`Unset ${keyOf(i)} in ${env}`}>
                            ✕
                          </Button>
                        </div>
                      )}
                    </TableCell>
                  );
                })}
                <TableCell>
                  <Button size="small" variant="ghost" onClick={() => rows.remove(i)} aria-label={`Remove ${keyOf(i)} everywhere`}>
                    Remove
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <EditorActions
          testIds={{ add: "bulk-add-key", issues: "bulk-issues", preview: "preview-bulk" }}
          previewLabel="Preview changes"
          issues={issues}
          hasChanges={hasChanges}
          onAdd={() => rows.append({ key: "", type: "text", cells: Object.fromEntries(props.environments.map((e) => [e, ""])) }, { shouldFocus: false })}
          onCancel={props.onCancel}
        />
        {preview && issues.length === 0 && preview.length > 0 ? (
          <div className="stack" data-testid="bulk-preview">
            {preview.map((u) => (
              <div key={u.environment}>
                <h3 className={styles.environmentTitle}>{u.environment}</h3>
                <ChangeList changes={u.changes} />
              </div>
            ))}
            <SaveActions
              label={target === "current" ? `Apply live to ${preview.length} environment${preview.length === 1 ? "" : "s"}` : `Commit ${preview.length} environment${preview.length === 1 ? "" : "s"}`}
              testId="save-bulk"
              pending={save.isPending}
              failure={save.isError ? { prefix: "Nothing was saved", error: save.error } : null}
              onSave={() => save.mutate({ updates: preview.map(({ environment, values }) => ({ environment, values })), view: target })}
              onBack={() => setPreview(null)}
            />
          </div>
        ) : null}
      </form>
    </Card>
  );
}
