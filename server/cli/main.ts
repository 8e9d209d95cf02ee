/**
 * The `clinic` command line (npx clinic …, npm run -s clinic -- …). Only what a command needs is
 * loaded: `help` imports nothing, the database commands load the domain code on demand.
 */
import { keepPrivate } from '../../db/private-files';
import { CommandError, USAGE, UsageError } from './usage';

// Backups, the database and uploads the command line writes are the owner's alone.
keepPrivate();

async function main(argv: string[]): Promise<void> {
  const [cmd] = argv;
  if (cmd === 'help' || cmd === '--help') {
    console.error(USAGE);
    return;
  }
  if (cmd === 'backup' || cmd === 'restore') return (await import('./backup'))[cmd](argv.slice(1));
  return (await import('./commands')).run(argv);
}

main(process.argv.slice(2)).catch(async (err) => {
  if (err instanceof CommandError) {
    console.error(`clinic: ${err.message}`);
    process.exit(err.exitCode);
  }
  const line =
    err instanceof UsageError
      ? `clinic: ${err.message.split('\n').join(' ')} (clinic help lists the commands)`
      : (await import('./commands')).explain(err);
  if (line) {
    console.error(line);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
