import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * A copy of this checkout as a fresh clone would have it (the files git tracks or would track,
 * as they are now; no dist/, no .env), sharing its node_modules: a build or `npm pack` in it
 * leaves this checkout's dist/, which other tests run, alone. Made a git repository with one
 * commit, so `git status` in it says what a command wrote.
 */
export function copyCheckout(target: string): string {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  const files = [...new Set(listed.split('\0').filter(Boolean))].filter((file) => existsSync(join(ROOT, file)) && file !== 'node_modules');
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(join(ROOT, file), join(target, file), { preserveTimestamps: true });
  }
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(target, 'node_modules'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: target, stdio: 'ignore' });
  git('init', '--quiet');
  git('add', '--all');
  git('-c', 'user.name=test', '-c', 'user.email=test@example.invalid', 'commit', '--quiet', '--no-verify', '-m', 'copy');
  return target;
}

/** What git sees changed or added in a copy since copyCheckout (ignored files such as dist/ excepted). */
export function changedFiles(checkout: string): string[] {
  return execFileSync('git', ['status', '--porcelain'], { cwd: checkout, encoding: 'utf8' }).split('\n').filter(Boolean);
}
