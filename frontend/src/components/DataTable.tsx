// A table of rows under one row of column titles, scrolling sideways on narrow screens.
import { Table } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * head holds the column titles in order; null leaves a column's title empty. wholeTitles keeps
 * each title on one line ("两步验证", not "两步验" over "证"). minWidth is the narrowest the
 * table is drawn: a narrower screen scrolls it sideways rather than breaking every cell into a
 * column of letters; label then names the region that scrolls, which the keyboard can reach.
 */
export function DataTable({
  head,
  testId,
  wholeTitles,
  minWidth,
  label,
  children,
}: {
  head: ReactNode[];
  testId?: string;
  wholeTitles?: boolean;
  minWidth?: number;
  label?: string;
  children: ReactNode;
}) {
  const region = label ? { role: "region", "aria-label": label, tabIndex: 0 } : {};
  return (
    <div className={minWidth ? "table-wrap scroll-cue" : "table-wrap"} {...region}>
      <Table data-testid={testId} miw={minWidth}>
        <Table.Thead>
          <Table.Tr>
            {head.map((title, i) => (
              <Table.Th key={i} className={wholeTitles ? "nowrap" : undefined}>
                {title}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </div>
  );
}
