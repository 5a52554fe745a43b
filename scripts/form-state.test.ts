import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();

/** components/ui holds the hook itself and primitives (ConfirmButton) that wrap any callback, not a server action. */
const allowed = (path: string) => path.startsWith('components/ui/') || /\.test\.tsx?$/.test(path);

// `const [busy, setBusy] = useState(false)`, also `useState<boolean>(false)` and names like `pendingSave`.
const OWN_BUSY = /const\s*\[\s*((?:busy|pending|submitting|saving)\w*)\s*,\s*\w+\s*\]\s*=\s*useState(?:<\s*boolean\s*>)?\(\s*false\s*\)/i;

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sourceFiles(p);
    else if (/\.(ts|tsx)$/.test(name)) yield p;
  }
}

/** Every client component line under app/ or components/ that keeps its own busy flag, as `path:line name`. */
function ownBusyState(files?: { path: string; text: string }[]): string[] {
  const all =
    files ??
    ['app', 'components'].flatMap((d) => [...sourceFiles(join(root, d))].map((p) => ({ path: relative(root, p), text: readFileSync(p, 'utf8') })));
  const out: string[] = [];
  for (const f of all) {
    if (allowed(f.path) || !/^\s*['"]use client['"]/.test(f.text)) continue;
    f.text.split('\n').forEach((line, i) => {
      const m = OWN_BUSY.exec(line);
      if (m) out.push(`${f.path}:${i + 1} ${m[1]}`);
    });
  }
  return out;
}

// A form or action button keeps busy and errors with components/ui/use-form-submit.ts (or useActionState
// for a form that must post without JavaScript), so every one disables, clears and shows errors alike.
describe('client form state', () => {
  it('no client component under app/ or components/ keeps its own busy state', () => {
    expect(ownBusyState()).toEqual([]);
  });

  it('finds a planted busy flag, not a server component, the hook or another useState', () => {
    const planted = [
      { path: 'app/dashboard/x/form.tsx', text: "'use client';\n\nconst [busy, setBusy] = useState(false);" },
      { path: 'components/y/button.tsx', text: '"use client";\nconst [ submitting , setSubmitting ] = useState<boolean>(false);' },
      {
        path: 'app/z/panel.tsx',
        text: "'use client';\nconst [pendingSave, setPendingSave] = useState(false);\nconst [open, setOpen] = useState(false);",
      },
      { path: 'app/server/page.tsx', text: 'const [busy, setBusy] = useState(false);' },
      { path: 'components/ui/use-form-submit.ts', text: "'use client';\nconst [busy, setBusy] = useState(false);" },
      { path: 'app/w/list.tsx', text: "'use client';\nconst [pending, setPending] = useState<string[] | null>(null);" },
    ];
    expect(ownBusyState(planted)).toEqual([
      'app/dashboard/x/form.tsx:3 busy',
      'components/y/button.tsx:2 submitting',
      'app/z/panel.tsx:2 pendingSave',
    ]);
  });
});
