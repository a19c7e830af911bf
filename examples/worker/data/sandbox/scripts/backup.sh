#!/bin/sh
# Nightly logical backup of postgres-main, run by the report-cron container at 02:00 UTC.
set -eu

DATE=$(date -u +%Y%m%d)
PREFIX=$(date -u +%Y-%m-%d)
DATABASES="app payments auth"
START=$(date +%s)

log() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) backup.sh: $*"; }

log "starting nightly backup of ${PGHOST} (databases: ${DATABASES})"
for db in ${DATABASES}; do
  file="/backups/${db}-${DATE}.dump"
  log "pg_dump ${db} -> ${file}"
  pg_dump --format=custom --compress=6 --dbname="${db}" --file="${file}"
  log "$(basename "${file}") written, $(du -h "${file}" | cut -f1)"
done

log "uploading $(ls /backups/*-"${DATE}".dump | wc -l) files to ${BACKUP_BUCKET}/${PREFIX}/"
aws s3 cp --recursive --exclude '*' --include "*-${DATE}.dump" /backups/ "${BACKUP_BUCKET}/${PREFIX}/"
log "upload complete"

log "pruning backups older than ${RETENTION_DAYS} days"
aws s3 ls "${BACKUP_BUCKET}/" | awk '{print $2}' | while read -r prefix; do
  day=${prefix%/}
  if [ "$(date -u -d "${day}" +%s)" -lt "$(date -u -d "-${RETENTION_DAYS} days" +%s)" ]; then
    aws s3 rm --recursive "${BACKUP_BUCKET}/${prefix}"
  fi
done

log "nightly backup finished in $(( $(date +%s) - START )) s"
