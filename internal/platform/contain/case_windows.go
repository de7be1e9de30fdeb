package contain

// caseInsensitive: NTFS and ReFS names compare without case for containment.
const caseInsensitive = true
