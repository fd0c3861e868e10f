"use client";
// The audience builder: groups (all / any, nestable, negatable) of conditions (field, op, value), as a
// controlled editor of the draft in ./audience-model. Each control is named by its place ("Condition 2.1
// value"), and a fault is said under its row and marks the control that has it (aria-invalid).
import { useId } from "react";
import { Button, Checkbox, Input, Select } from "@/components/ui";
import type { AudienceOp } from "@/lib/offers-client/schemas";
import {
  addMember,
  canNest,
  fieldChoices,
  fieldsOf,
  isTextField,
  LEVEL_FIELD,
  newCondition,
  newGroup,
  OP_LABELS,
  opsFor,
  removeNode,
  updateNode,
  type ConditionDraft,
  type Currency,
  type FaultPart,
  type Faults,
  type FieldChoice,
  type GroupDraft,
} from "./audience-model";
import styles from "../live-ops.module.css";

export interface AudienceBuilderProps {
  value: GroupDraft;
  onChange: (next: GroupDraft) => void;
  currencies: Currency[];
  faults: Faults;
}

interface Context {
  root: GroupDraft;
  change: (next: GroupDraft) => void;
  choices: FieldChoice[];
  faults: Faults;
}

const PART_LABELS: Record<FaultPart, string> = { field: "Field", level: "Level name", op: "Operator", value: "Value", low: "Low", high: "High", node: "Rule" };

export function AudienceBuilder({ value, onChange, currencies, faults }: AudienceBuilderProps) {
  const context: Context = { root: value, change: onChange, choices: fieldChoices(currencies, fieldsOf(value)), faults };
  return (
    <div data-testid="audience-builder">
      <GroupEditor group={value} number="" context={context} />
    </div>
  );
}

function GroupEditor({ group, number, context }: { group: GroupDraft; number: string; context: Context }) {
  const root = number === "";
  const name = root ? "Audience" : `Group ${number}`;
  const set = (patch: Partial<GroupDraft>) => context.change(updateNode(context.root, group.id, (n) => ({ ...n, ...patch }) as GroupDraft));
  const fault = context.faults.get(group.id)?.node;
  const childNumber = (i: number) => (root ? `${i + 1}` : `${number}.${i + 1}`);
  return (
    <fieldset className={root ? styles.audienceRoot : styles.audienceGroup} aria-label={name} data-testid={root ? "audience-root" : "audience-group"}>
      <div className={styles.groupHead}>
        <Select aria-label={`${name} joins by`} value={group.join} onChange={(e) => set({ join: e.target.value as GroupDraft["join"] })}>
          <option value="all">Players matching all of</option>
          <option value="any">Players matching any of</option>
        </Select>
        <Checkbox label="Not (those who do not match)" aria-label={`Not: ${name} (those who do not match)`} checked={group.negate} onChange={(e) => set({ negate: e.target.checked })} />
        {root ? null : (
          <Button size="small" variant="ghost" aria-label={`Remove ${name}`} onClick={() => context.change(removeNode(context.root, group.id))}>
            Remove group
          </Button>
        )}
      </div>
      {group.members.length === 0 ? (
        <p className={`muted ${styles.flush}`}>
          {group.join === "all" ? "No conditions yet: every player matches." : "No conditions yet: no player matches."}
        </p>
      ) : (
        <ol className={styles.members}>
          {group.members.map((member, i) => (
            <li key={member.id}>
              {member.kind === "group" ? (
                <GroupEditor group={member} number={childNumber(i)} context={context} />
              ) : (
                <ConditionRow condition={member} number={childNumber(i)} context={context} />
              )}
            </li>
          ))}
        </ol>
      )}
      {fault ? (
        <span className="ui-field__error" role="alert">
          {fault}
        </span>
      ) : null}
      <div className="row">
        <Button size="small" onClick={() => context.change(addMember(context.root, group.id, newCondition()))}>
          Add condition{root ? "" : ` to ${name.toLowerCase()}`}
        </Button>
        <Button
          size="small"
          variant="ghost"
          disabled={!canNest(context.root, group.id)}
          onClick={() => context.change(addMember(context.root, group.id, newGroup({ join: group.join === "all" ? "any" : "all", members: [newCondition()] })))}
        >
          Add group{root ? "" : ` to ${name.toLowerCase()}`}
        </Button>
      </div>
    </fieldset>
  );
}

function ConditionRow({ condition: c, number, context }: { condition: ConditionDraft; number: string; context: Context }) {
  const uid = useId();
  const name = `Condition ${number}`;
  const faults = context.faults.get(c.id) ?? {};
  const set = (patch: Partial<ConditionDraft>) => context.change(updateNode(context.root, c.id, (n) => ({ ...n, ...patch }) as ConditionDraft));
  const invalid = (part: FaultPart) => (faults[part] ? { "aria-invalid": true as const, "aria-describedby": `${uid}-${part}` } : {});
  const text = isTextField(c.field);
  const ops = opsFor(c.field);
  const numberInput = { inputMode: "decimal" as const, autoComplete: "off" };
  return (
    <div role="group" aria-label={name} className={styles.condition} data-testid="audience-condition">
      <div className={styles.conditionControls}>
        <Select
          aria-label={`${name} field`}
          value={c.field}
          onChange={(e) => {
            const field = e.target.value;
            set({ field, op: opsFor(field).includes(c.op) ? c.op : "eq" });
          }}
          {...invalid("field")}
        >
          {context.choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </Select>
        {c.field === LEVEL_FIELD ? <Input aria-label={`${name} level name`} placeholder="level name, e.g. main" value={c.level} onChange={(e) => set({ level: e.target.value })} {...invalid("level")} /> : null}
        <Select aria-label={`${name} operator`} value={c.op} onChange={(e) => set({ op: e.target.value as AudienceOp })} {...invalid("op")}>
          {ops.map((op) => (
            <option key={op} value={op}>
              {OP_LABELS[op]}
            </option>
          ))}
        </Select>
        {c.op === "exists" ? (
          <Select aria-label={`${name} value`} value={c.exists ? "yes" : "no"} onChange={(e) => set({ exists: e.target.value === "yes" })}>
            <option value="yes">yes (reported)</option>
            <option value="no">no (never reported)</option>
          </Select>
        ) : c.op === "between" ? (
          <span className={styles.between}>
            <Input aria-label={`${name} low`} placeholder="low" value={c.low} onChange={(e) => set({ low: e.target.value })} {...numberInput} {...invalid("low")} />
            <span aria-hidden="true">and</span>
            <Input aria-label={`${name} high`} placeholder="high" value={c.high} onChange={(e) => set({ high: e.target.value })} {...numberInput} {...invalid("high")} />
          </span>
        ) : (
          <Input
            aria-label={c.op === "in" ? `${name} values` : `${name} value`}
            placeholder={c.op === "in" ? (text ? "Aria, Bram" : "1, 2, 3") : text ? "a username" : "a number"}
            value={c.value}
            onChange={(e) => set({ value: e.target.value })}
            {...(text && c.op !== "in" ? { autoComplete: "off" } : numberInput)}
            {...(c.op === "in" ? { title: "comma-separated" } : {})}
            {...invalid("value")}
          />
        )}
        <Checkbox label="not" aria-label={`Not: ${name}`} checked={c.negate} onChange={(e) => set({ negate: e.target.checked })} />
        <Button size="small" variant="ghost" aria-label={`Remove ${name.toLowerCase()}`} onClick={() => context.change(removeNode(context.root, c.id))}>
          ✕
        </Button>
      </div>
      {(Object.keys(faults) as FaultPart[]).map((part) => (
        <span key={part} id={`${uid}-${part}`} className="ui-field__error" role="alert">
          {PART_LABELS[part]}: {faults[part]}
        </span>
      ))}
    </div>
  );
}
