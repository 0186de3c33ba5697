output "bucket_name" {
  description = "Name of the warehouse bucket."
  value       = aws_s3_bucket.this.id
}

output "bucket_arn" {
  description = "ARN of the warehouse bucket."
  value       = aws_s3_bucket.this.arn
}

output "warehouse_prefix" {
  description = "Key prefix of the warehouse inside the bucket."
  value       = local.prefix
}

output "warehouse_uri" {
  description = "The pipelines' --warehouse value: s3://<bucket>/<prefix>."
  value       = "s3://${aws_s3_bucket.this.id}/${local.prefix}"
}

output "region" {
  description = "Region of the bucket: the pipelines' S3 region setting."
  value       = aws_s3_bucket.this.region
}

output "endpoint_override" {
  description = "The pipelines' S3 endpoint override: always null for AWS S3, where the SDK derives the endpoint from the region."
  value       = null
}

output "path_style_access" {
  description = "The pipelines' S3 path-style access setting: false for AWS S3, which serves virtual-hosted-style requests."
  value       = false
}

output "worker_role_arn" {
  description = "ARN of the role the pipeline workers run as; the SDK's default credentials provider chain picks it up on the workers."
  value       = aws_iam_role.worker.arn
}

output "worker_role_name" {
  description = "Name of the worker role, for attaching it to a runner (instance profile, EKS Pod Identity association, job role)."
  value       = aws_iam_role.worker.name
}

output "worker_instance_profile_name" {
  description = "Name of the worker instance profile, or null when create_instance_profile is false."
  value       = one(aws_iam_instance_profile.worker[*].name)
}

output "worker_policy_arn" {
  description = "ARN of the read, write and delete policy on the warehouse prefix, attached to the worker role."
  value       = aws_iam_policy.worker.arn
}

output "reader_policy_arn" {
  description = "ARN of the read-only policy on the warehouse prefix, for consumers to attach to their own roles."
  value       = aws_iam_policy.reader.arn
}

output "kms_key_arn" {
  description = "ARN of the KMS key that encrypts the bucket, or null with SSE-S3."
  value       = local.kms_key_arn
}
