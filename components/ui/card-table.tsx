import type { ReactNode } from 'react';
import { tableClass, thClass } from './card';
import { ScrollTable } from './scroll-hint';

/**
 * A table filling its card to the edges, scrolling sideways inside it with the hint (ScrollTable): the header row
 * from `columns`, the body rows as children. An empty column title is an unlabelled column (a row's buttons).
 */
export function CardTable({ columns, children, label }: { columns: ReactNode[]; children: ReactNode; label?: string }) {
  return (
    <ScrollTable className="-m-5">
      <table className={tableClass} aria-label={label}>
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i} className={thClass}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </ScrollTable>
  );
}
