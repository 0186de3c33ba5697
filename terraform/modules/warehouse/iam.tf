# The worker policy grants what the table needs and nothing else:
#   - objects under "<prefix>/": read, create (PutObject, also with If-None-Match: * for
#     commits), delete (snapshot expiry, orphan cleaning), and the multipart calls
#     (CreateMultipartUpload, UploadPart and CompleteMultipartUpload are s3:PutObject);
#   - listing the bucket only with an s3:prefix under "<prefix>/".
# It grants no s3:DeleteObjectVersion, and denies it outright, so that versioning can
# undo what a bad pipeline run deleted or overwrote.
data "aws_iam_policy_document" "worker" {
  statement {
    sid    = "ListWarehousePrefix"
    effect = "Allow"
    actions = [
      "s3:ListBucket",
    ]
    resources = [aws_s3_bucket.this.arn]

    condition {
      test     = "StringLike"
      variable = "s3:prefix"
      values   = ["${local.prefix}/*"]
    }
  }

  statement {
    sid    = "ReadWriteDeleteWarehouseObjects"
    effect = "Allow"
    actions = [
      "s3:AbortMultipartUpload",
      "s3:DeleteObject",
      "s3:GetObject",
      "s3:ListMultipartUploadParts",
      "s3:PutObject",
    ]
    resources = ["${aws_s3_bucket.this.arn}/${local.prefix}/*"]
  }

  dynamic "statement" {
    for_each = local.use_kms ? [local.kms_key_arn] : []

    content {
      sid    = "UseWarehouseKeyThroughS3"
      effect = "Allow"
      actions = [
        "kms:Decrypt",
        "kms:GenerateDataKey",
      ]
      resources = [statement.value]

      condition {
        test     = "StringEquals"
        variable = "kms:ViaService"
        values   = ["s3.${aws_s3_bucket.this.region}.amazonaws.com"]
      }
    }
  }

  # Explicit denies win over any other policy attached to the role later.
  statement {
    sid    = "DenyVersionDeletesAndBucketChanges"
    effect = "Deny"
    actions = [
      "s3:BypassGovernanceRetention",
      "s3:DeleteBucket",
      "s3:DeleteBucketPolicy",
      "s3:DeleteObjectVersion",
      "s3:PutBucketPolicy",
      "s3:PutBucketPublicAccessBlock",
      "s3:PutBucketVersioning",
      "s3:PutEncryptionConfiguration",
      "s3:PutLifecycleConfiguration",
    ]
    resources = [
      aws_s3_bucket.this.arn,
      "${aws_s3_bucket.this.arn}/*",
    ]
  }
}

# Consumers (query engines, analysts' jobs) read the tables and never change them.
data "aws_iam_policy_document" "reader" {
  statement {
    sid    = "ListWarehousePrefix"
    effect = "Allow"
    actions = [
      "s3:ListBucket",
    ]
    resources = [aws_s3_bucket.this.arn]

    condition {
      test     = "StringLike"
      variable = "s3:prefix"
      values   = ["${local.prefix}/*"]
    }
  }

  statement {
    sid    = "ReadWarehouseObjects"
    effect = "Allow"
    actions = [
      "s3:GetObject",
    ]
    resources = ["${aws_s3_bucket.this.arn}/${local.prefix}/*"]
  }

  dynamic "statement" {
    for_each = local.use_kms ? [local.kms_key_arn] : []

    content {
      sid    = "DecryptWithWarehouseKeyThroughS3"
      effect = "Allow"
      actions = [
        "kms:Decrypt",
      ]
      resources = [statement.value]

      condition {
        test     = "StringEquals"
        variable = "kms:ViaService"
        values   = ["s3.${aws_s3_bucket.this.region}.amazonaws.com"]
      }
    }
  }
}

resource "aws_iam_policy" "worker" {
  name        = "${local.worker_role_name}-warehouse-rw"
  description = "Read, write and delete the changelake warehouse s3://${var.bucket_name}/${local.prefix}/"
  policy      = data.aws_iam_policy_document.worker.json
  tags        = var.tags
}

resource "aws_iam_policy" "reader" {
  name        = "${var.bucket_name}-warehouse-ro"
  description = "Read-only access to the changelake warehouse s3://${var.bucket_name}/${local.prefix}/"
  policy      = data.aws_iam_policy_document.reader.json
  tags        = var.tags
}

data "aws_iam_policy_document" "worker_assume" {
  dynamic "statement" {
    for_each = length(var.worker_trusted_services) > 0 ? [var.worker_trusted_services] : []

    content {
      sid    = "TrustedServices"
      effect = "Allow"
      # sts:TagSession is what EKS Pod Identity calls along with sts:AssumeRole.
      actions = [
        "sts:AssumeRole",
        "sts:TagSession",
      ]

      principals {
        type        = "Service"
        identifiers = statement.value
      }
    }
  }

  dynamic "statement" {
    for_each = length(var.worker_trusted_role_arns) > 0 ? [var.worker_trusted_role_arns] : []

    content {
      sid    = "TrustedRoles"
      effect = "Allow"
      actions = [
        "sts:AssumeRole",
      ]

      principals {
        type        = "AWS"
        identifiers = statement.value
      }
    }
  }
}

resource "aws_iam_role" "worker" {
  name                 = local.worker_role_name
  description          = "Pipeline workers writing the changelake warehouse s3://${var.bucket_name}/${local.prefix}/"
  assume_role_policy   = data.aws_iam_policy_document.worker_assume.json
  max_session_duration = 3600
  tags                 = var.tags

  lifecycle {
    # A role nobody can assume is useless, and an empty trust policy is rejected by IAM.
    precondition {
      condition     = length(var.worker_trusted_services) + length(var.worker_trusted_role_arns) > 0
      error_message = "Give at least one of worker_trusted_services or worker_trusted_role_arns."
    }
  }
}

resource "aws_iam_role_policy_attachment" "worker" {
  role       = aws_iam_role.worker.name
  policy_arn = aws_iam_policy.worker.arn
}

resource "aws_iam_instance_profile" "worker" {
  count = var.create_instance_profile ? 1 : 0

  name = local.worker_role_name
  role = aws_iam_role.worker.name
  tags = var.tags
}
