// A table of rows under one row of column titles, scrolling sideways on narrow screens.
import { Table } from "@mantine/core";
import type { ReactNode } from "react";

/** head holds the column titles in order; null leaves a column's title empty. */
export function DataTable({ head, testId, children }: { head: ReactNode[]; testId?: string; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <Table data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {head.map((title, i) => (
              <Table.Th key={i}>{title}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </div>
  );
}

