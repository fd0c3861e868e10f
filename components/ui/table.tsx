import { useId, type HTMLAttributes, type ReactNode, type TableHTMLAttributes, type TdHTMLAttributes, type ThHTMLAttributes } from "react";

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(" ") || undefined;

/** A table is named once: by a label (read by assistive technology only) or by a visible caption. */
type TableName = { label: string; caption?: undefined } | { caption: ReactNode; label?: undefined };

export type TableProps = Omit<TableHTMLAttributes<HTMLTableElement>, "aria-label" | "aria-labelledby"> &
  TableName & {
    /** On a phone each row becomes a block and each cell a line led by its `label`: the table never scrolls sideways. */
    stackOnNarrow?: boolean;
  };

/**
 * A data table inside a region that scrolls sideways by itself, so a wide table never makes the page
 * wider than the screen. The region is focusable (a keyboard user scrolls it with the arrow keys) and
 * carries the table's name.
 */
export function Table({ label, caption, className, stackOnNarrow = false, children, ...props }: TableProps) {
  const captionId = useId();
  const name = caption === undefined ? { "aria-label": label } : { "aria-labelledby": captionId };
  return (
    <div className="ui-table-scroll" role="region" tabIndex={0} {...name}>
      <table className={classes("ui-table", stackOnNarrow && "ui-table--stack", className)} {...name} {...props}>
        {caption === undefined ? null : (
          <caption id={captionId} className="ui-table__caption">
            {caption}
          </caption>
        )}
        {children}
      </table>
    </div>
  );
}

export function TableHeader(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead {...props} />;
}

export function TableBody(props: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody {...props} />;
}

export function TableRow(props: HTMLAttributes<HTMLTableRowElement>) {
  return <tr {...props} />;
}

/** A column's heading (scope="col" unless told otherwise). */
export function TableHead({ scope = "col", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope={scope} {...props} />;
}

export type TableCellProps = TdHTMLAttributes<HTMLTableCellElement> & {
  /** The column's name, shown before the cell where a stacking table stacks (the heading is read already). */
  label?: string;
};

export function TableCell({ label, ...props }: TableCellProps) {
  return <td data-label={label} {...props} />;
}
