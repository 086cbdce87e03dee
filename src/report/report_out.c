/*
 * report_out.c: what every report of report.h does around its own
 * writing (sv_report_open, sv_report_close): for JSON and CSV, the one
 * writer of that format (json.h, csv.h) over a buffered stream of the
 * FILE, flushed at the end; for a table, nothing but the FILE, flushed
 * at the end too.  One place says how a report's write error becomes
 * -EIO.
 */
#include "scopeview/report.h"

#include <errno.h>
#include <string.h>

void sv_report_open(
	struct sv_report_out *o, FILE *out, enum sv_report_format fmt)
{
	memset(o, 0, sizeof *o);
	o->fmt = fmt;
	o->file = out;
	if (fmt != SV_REPORT_JSON && fmt != SV_REPORT_CSV)
		return;
	sv_outbuf_init(&o->b, out);
	if (fmt == SV_REPORT_JSON)
		sv_json_init(&o->j, &o->b);
	else
		sv_csv_init(&o->c, &o->b);
}

int sv_report_close(struct sv_report_out *o)
{
	int rc = 0;

	if (o->fmt == SV_REPORT_JSON)
		sv_json_fini(&o->j);
	if (o->fmt == SV_REPORT_JSON || o->fmt == SV_REPORT_CSV)
		rc = sv_outbuf_fini(&o->b);
	/* what the FILE still buffers, so that a full disk is seen here */
	if (fflush(o->file) != 0)
		rc = -EIO;
	return rc < 0 || ferror(o->file) ? -EIO : 0;
}
