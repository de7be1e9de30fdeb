// Package catalog loads the capability catalog (capabilities.yaml): an ordered mapping
// from capability id to {description, safety, tags, tools, project_files}
// (docs/catalog.md).
//
// Loading is one pass over the YAML node tree and is strict and fails closed: a key
// written twice is an error, unknown fields are errors (so the removed check_argv,
// verify_argv and rollback_argv fields are load errors, not silently ignored), a value
// the document types as a number, boolean or null where a string belongs is an error, an unknown safety value is an error rather than a
// default, a project_files entry that is not a root-level name (or names a fact of a
// file whose kind cannot be read) is an error, and every error names the capability
// and the field. Capability ids keep the order of the document.
//
// It must never resolve, fingerprint or run a tool, nor read a project: it only
// describes them.
package catalog
