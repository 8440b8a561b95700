/**
 * Why a file could not be read or written, in words: the messages kvcheck prints name a reason
 * ("permission denied"), never a raw error code such as `EACCES`.
 */

const reasons: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'it already exists',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  EBUSY: 'the file is busy',
  EINVAL: 'the file system does not accept that name',
};

/**
 * The reason a file operation failed, in words: a known Node error code becomes a phrase
 * (`ENOENT` → `no such file or directory`); another error its message without the leading code.
 */
export function fileProblem(e: unknown): string {
  const code = e instanceof Error && 'code' in e ? e.code : undefined;
  const known = typeof code === 'string' ? reasons[code] : undefined;
  if (known !== undefined) return known;
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/^[A-Z][A-Z0-9_]+:\s*/, '').replace(/,\s*\w+\s+'.*'$/, '');
}
