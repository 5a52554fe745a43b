'use client';

import { useId, useMemo, useState } from 'react';
import { inputClass } from '@/components/ui/field';

export interface Currency {
  code: string;
  coin: string;
  network: string;
  name: string;
}

/** A searchable combobox (ARIA 1.2 pattern): type to filter by code, coin, network or name; arrows and Enter pick. */
export function CurrencyPicker({
  currencies,
  value,
  onChange,
  error,
}: {
  currencies: Currency[];
  value: string;
  onChange: (code: string) => void;
  error?: string;
}) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    const list = q ? currencies.filter((c) => `${c.code} ${c.coin} ${c.network} ${c.name}`.toLowerCase().includes(q)) : currencies;
    return list.slice(0, 50);
  }, [currencies, query]);
  const selected = currencies.find((c) => c.code === value);
  const pick = (c: Currency) => {
    onChange(c.code);
    setQuery('');
    setOpen(false);
  };
  return (
    <div className="relative">
      <label htmlFor={`${id}-input`} className="block text-sm font-medium text-slate-700">
        Currency to receive
      </label>
      <input
        id={`${id}-input`}
        role="combobox"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        aria-activedescendant={open && matches[active] ? `${id}-${matches[active]!.code}` : undefined}
        aria-invalid={!!error}
        autoComplete="off"
        placeholder={selected ? `${selected.name} (${selected.code})` : `Search ${currencies.length} currencies…`}
        value={query}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((a) => Math.min(a + 1, matches.length - 1));
            setOpen(true);
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === 'Enter' && open && matches[active]) {
            e.preventDefault();
            pick(matches[active]!);
          } else if (e.key === 'Escape') setOpen(false);
        }}
        className={`${inputClass} mt-1 ${selected ? 'placeholder:text-slate-900' : ''}`}
      />
      {open && (
        <ul
          id={`${id}-list`}
          role="listbox"
          className="absolute z-30 mt-1 max-h-60 w-full overflow-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg"
        >
          {matches.length === 0 && <li className="px-3 py-2 text-slate-500">No currency matches “{query}”.</li>}
          {matches.map((c, i) => (
            <li
              key={c.code}
              id={`${id}-${c.code}`}
              role="option"
              aria-selected={c.code === value}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(c);
              }}
              className={`flex cursor-pointer justify-between px-3 py-1.5 ${i === active ? 'bg-indigo-50' : ''}`}
            >
              <span>
                {c.name} <span className="text-slate-500">({c.coin})</span>
              </span>
              <span className="font-mono text-xs text-slate-500">
                {c.code} · {c.network}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="min-h-5 text-xs text-red-600" role={error ? 'alert' : undefined}>
        {error ?? ''}
      </p>
    </div>
  );
}
